'use strict'
// The libmcp Node echo server of echo-libmcp.js mounted in a bare node:http server
// (`server.handleRequest`, lib/mount.js) instead of serving on its own port, for the mount
// benchmark (`mcp-bench --node --mount`). Same command line as the other echo servers.

const http = require('node:http')
const path = require('node:path')
const { Server } = require(path.join(__dirname, '../../bindings-node'))
const { parseArgs, announce, onStdinClosed } = require('./common')

const how = parseArgs('echo-mounted.js')
if (how.transport !== 'http') {
  process.stderr.write('echo-mounted.js serves HTTP only: --http IPV4:PORT\n')
  process.exit(2)
}
const server = new Server({ name: 'echo-libmcp-node-mounted', version: '1.0.0' })
server.tool('echo', {
  description: 'Returns the text it is given',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
}, ({ text }) => ({ content: [{ type: 'text', text }] }))
const mcp = server.mount({ maxSessions: 1000000 })

const app = http.createServer((req, res) => mcp.handleRequest(req, res))
app.keepAliveTimeout = 60000
app.on('connection', (socket) => socket.setNoDelay(true))
app.listen(how.port, how.host, () => {
  announce(how.host, app.address().port)
  onStdinClosed(() => {
    server.close()
    app.close()
    app.closeAllConnections()
  })
})
