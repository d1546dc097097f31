'use strict'
// The same echo server on the official TypeScript SDK (@modelcontextprotocol/sdk, the version pinned
// in bindings-node/package.json): `McpServer.registerTool` with a Zod input schema, as its README
// shows. Over HTTP it keeps one StreamableHTTPServerTransport (and one McpServer) per session, the
// SDK's documented stateful pattern, answering with JSON bodies (its fastest mode).

const path = require('node:path')
const http = require('node:http')
const { randomUUID } = require('node:crypto')
const { createRequire } = require('node:module')
const { parseArgs, announce, onStdinClosed } = require('./common')

const sdk = createRequire(path.join(__dirname, '../../bindings-node/package.json'))
const { McpServer } = sdk('@modelcontextprotocol/sdk/server/mcp.js')
const { StdioServerTransport } = sdk('@modelcontextprotocol/sdk/server/stdio.js')
const { StreamableHTTPServerTransport } = sdk('@modelcontextprotocol/sdk/server/streamableHttp.js')
const { isInitializeRequest } = sdk('@modelcontextprotocol/sdk/types.js')
const { z } = sdk('zod')

function echoServer () {
  const server = new McpServer({ name: 'echo-sdk', version: '1.0.0' })
  server.registerTool('echo', {
    description: 'Returns the text it is given',
    inputSchema: { text: z.string() },
  }, ({ text }) => ({ content: [{ type: 'text', text }] }))
  return server
}

/** Reads a request body as JSON (undefined when empty or not JSON: the transport answers that). */
function body (req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      try { resolve(text ? JSON.parse(text) : undefined) } catch { resolve(undefined) }
    })
    req.on('error', reject)
  })
}

/** The SDK's documented stateful routing: a request with a known `Mcp-Session-Id` goes to that
 * session's transport, an initialize request without one gets a new transport (and McpServer);
 * `sessions` maps ids to transports. Resolves when the transport has answered. */
function routeToSession (sessions) {
  return async (req, res, parsed) => {
    const id = req.headers['mcp-session-id']
    let transport = id && sessions.get(id)
    if (!transport && !id && req.method === 'POST' && isInitializeRequest(parsed)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sid) => { sessions.set(sid, transport) },
      })
      transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId) }
      await echoServer().connect(transport)
    }
    if (!transport) {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no valid session' }, id: null }))
      return
    }
    await transport.handleRequest(req, res, parsed)
  }
}

function serveHttp (host, port) {
  const sessions = new Map()
  const route = routeToSession(sessions)
  const server = http.createServer(async (req, res) => {
    try {
      await route(req, res, req.method === 'POST' ? await body(req) : undefined)
    } catch (e) {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    }
  })
  server.keepAliveTimeout = 60000
  server.on("connection", (socket) => socket.setNoDelay(true))
  server.listen(port, host, () => {
    announce(host, server.address().port)
    onStdinClosed(() => {
      for (const t of sessions.values()) t.close().catch(() => {})
      server.close()
      server.closeAllConnections()
    })
  })
}

if (require.main === module) {
  const how = parseArgs('echo-sdk.js')
  if (how.transport === 'stdio') {
    echoServer().connect(new StdioServerTransport())
  } else {
    serveHttp(how.host, how.port)
  }
}

// echo-sdk-express.js mounts the same server in Express.
module.exports = { routeToSession }
