'use strict'
// The official TypeScript SDK's echo server (echo-sdk.js) mounted in an Express app as its README
// shows: express.json(), one StreamableHTTPServerTransport (and McpServer) per session, and
// `transport.handleRequest(req, res, req.body)` on the route, answering with JSON bodies (its
// fastest mode). For the mount benchmark (`mcp-bench --node --mount`); HTTP only.

const path = require('node:path')
const { createRequire } = require('node:module')
const { parseArgs, announce, onStdinClosed } = require('./common')

const dev = createRequire(path.join(__dirname, '../../bindings-node/package.json'))
const express = dev('express')
const { routeToSession } = require('./echo-sdk')

const how = parseArgs('echo-sdk-express.js')
if (how.transport !== 'http') {
  process.stderr.write('echo-sdk-express.js serves HTTP only: --http IPV4:PORT\n')
  process.exit(2)
}
const sessions = new Map()
const app = express()
app.use(express.json({ limit: '4mb' }))
const route = routeToSession(sessions)
app.all('/mcp', (req, res) => route(req, res, req.body))
const listener = app.listen(how.port, how.host, () => {
  announce(how.host, listener.address().port)
  onStdinClosed(() => {
    for (const t of sessions.values()) t.close().catch(() => {})
    listener.close()
    listener.closeAllConnections()
  })
})
listener.keepAliveTimeout = 60000
listener.on('connection', (socket) => socket.setNoDelay(true))
