'use strict'
// The conformance everything-server (everything-server.js) mounted at /mcp in a web application
// of its own: an Express app (`server.handleRequest` after express.json()) or a Hono app on
// @hono/node-server (`server.fetch`), each with a route of its own, `/health`. The mount checks
// Host as the own-port server does (the suite's dns-rebinding-protection scenario): the loopback
// names are listed, which turns the check on.
// Usage: node everything-mounted.js express|hono [HOST:PORT]   (port 0: any; prints the URL)
// Express and Hono are the dev dependencies of bindings-node (`npm ci` there).
const path = require('node:path')
const { createRequire } = require('node:module')
const { server } = require('./everything-server')

const dev = createRequire(path.join(__dirname, '..', '..', 'bindings-node', 'package.json'))
const mcp = server.mount({ allowedHosts: ['localhost', '127.0.0.1', '[::1]'] })

function express (host, port, ready) {
  const app = dev('express')()
  app.get('/health', (_req, res) => res.send('ok'))
  app.use(dev('express').json())
  app.all('/mcp', (req, res) => mcp.handleRequest(req, res, req.body))
  const s = app.listen(port, host, () => ready(s.address().port))
}

function hono (host, port, ready) {
  const app = new (dev('hono').Hono)()
  app.get('/health', (c) => c.text('ok'))
  app.all('/mcp', (c) => mcp.fetch(c.req.raw))
  dev('@hono/node-server').serve({ fetch: app.fetch, hostname: host, port }, (info) => ready(info.port))
}

const apps = { express, hono }
const [kind, where = '127.0.0.1:3000'] = process.argv.slice(2)
if (!Object.hasOwn(apps, kind)) {
  process.stderr.write('usage: node everything-mounted.js express|hono [HOST:PORT]\n')
  process.exit(2)
}
const [host, port] = where.split(/:(?=\d+$)/)
mcp.ready.then(() => apps[kind](host, Number(port), (p) => {
  process.stderr.write(`listening on http://${host}:${p}/mcp\n`)
}), (e) => {
  process.stderr.write(`everything-mounted: ${e.message}\n`)
  process.exit(1)
})
