// The Node everything-server (examples/node/everything-server.js) served the way `mcp-soak` serves
// its own, so that `mcp-soak --server` can soak the Node package:
//
//   node everything_node.js --serve-http    Streamable HTTP and HTTP+SSE on a free loopback port;
//                                           prints HOST:PORT on stdout once listening
//   node everything_node.js --serve-stdio   stdio
//
// Needs the Node package built (bindings-node: `npm run build`); NAPI_RS_NATIVE_LIBRARY_PATH=FILE
// loads another build of the addon (a release one: napi's loader, bindings-node/index.js). With
// MCP_SOAK_MEMORY_DIR set (mcp-soak sets it), node_memory.js reports `process.memoryUsage()`.
'use strict'

const path = require('node:path')
require('./node_memory')
const { server } = require(path.join(__dirname, '..', '..', 'examples', 'node', 'everything-server.js'))

async function main (mode) {
  if (mode === '--serve-stdio') return server.serveStdio()
  if (mode !== '--serve-http') {
    process.stderr.write('usage: node everything_node.js --serve-http | --serve-stdio\n')
    process.exit(2)
  }
  const http = await server.serveHttp({ host: '127.0.0.1', port: 0, httpSse: true })
  process.stdout.write(`${new URL(http.url).host}\n`)
  await http.closed
}

main(process.argv[2]).catch((e) => {
  process.stderr.write(`everything_node: ${e.message}\n`)
  process.exit(1)
})
