'use strict'
// The libmcp Node echo server: one tool, `echo(text)`, answered by a synchronous handler, exactly as
// an application writes it with the `libmcp` package (bindings-node/). Build the addon in release
// mode first (`cd bindings-node && npx napi build --platform --release`).

const path = require('node:path')
// LIBMCP_NODE_PACKAGE names another copy of the package (benches/artifacts.sh: the npm package
// scripts/dist.sh ships, installed into a project of its own).
const { Server } = require(process.env.LIBMCP_NODE_PACKAGE || path.join(__dirname, '../../bindings-node'))
const { parseArgs, announce, onStdinClosed } = require('./common')

const how = parseArgs('echo-libmcp.js')
const server = new Server({ name: 'echo-libmcp-node', version: '1.0.0' })
// With LIBMCP_BENCH_ZOD=1 the tool's schema is Zod's, as the SDK's echo server has it: Zod parses
// the arguments (in the package) instead of the engine's JSON Schema check.
const inputSchema = process.env.LIBMCP_BENCH_ZOD === '1'
  ? { text: require(require.resolve('zod', { paths: [path.join(__dirname, '../../bindings-node')] })).string() }
  : { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }
server.tool('echo', {
  description: 'Returns the text it is given',
  inputSchema,
}, ({ text }) => ({ content: [{ type: 'text', text }] }))

async function main () {
  if (how.transport === 'stdio') {
    await server.serveStdio()
    return
  }
  // The idle-session memory measurement opens thousands of sessions.
  const http = await server.serveHttp({ host: how.host, port: how.port, maxSessions: 1000000 })
  announce(how.host, http.port)
  onStdinClosed(() => server.close())
}

main().catch((e) => {
  process.stderr.write(`echo-libmcp.js: ${e && e.stack}\n`)
  process.exit(1)
})
