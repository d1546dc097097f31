'use strict'
// Serving a server written for the official TypeScript SDK as its examples serve one over
// Streamable HTTP: a server and a transport per session, looked up by Mcp-Session-Id, on
// node:http (sdk_dropin.test.js, sdk_low_level.test.js).
const http = require('node:http')
const { randomUUID } = require('node:crypto')

/** Serves `make()`'s server (a new one per session) with `sdk`'s StreamableHTTPServerTransport;
 * `events` collects `initialized` and `closed` as the sessions start and end. */
async function serveSessions (sdk, make, events = []) {
  const transports = new Map()
  const server = http.createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const text = Buffer.concat(chunks).toString('utf8')
    const body = text ? JSON.parse(text) : undefined
    const sid = req.headers['mcp-session-id']
    let transport = sid && transports.get(sid)
    if (!transport) {
      if (sid) {
        res.writeHead(404).end()
        return
      }
      transport = new sdk.StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          events.push('initialized')
          transports.set(id, transport)
        },
        onsessionclosed: () => events.push('closed'),
      })
      await make().connect(transport)
    }
    await transport.handleRequest(req, res, body)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: new URL(`http://127.0.0.1:${server.address().port}/mcp`),
    events,
    close: async () => {
      for (const t of transports.values()) await t.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

module.exports = { serveSessions }
