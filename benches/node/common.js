'use strict'
// What both Node echo servers share with the Rust ones (benches/src/serve.rs): the command line
// (no arguments: stdio; `--http ADDR`: Streamable HTTP), the line that tells the driver where they
// listen, and stopping when the driver closes their stdin.

/** `{transport: 'stdio'}` or `{transport: 'http', host, port}`; exits with status 2 when wrong. */
function parseArgs (program) {
  const args = process.argv.slice(2)
  if (args.length === 0) return { transport: 'stdio' }
  const m = args.length === 2 && args[0] === '--http' && /^(\d+\.\d+\.\d+\.\d+):(\d+)$/.exec(args[1])
  if (!m) {
    process.stderr.write(`usage: ${program} [--http IPV4:PORT]   (stdio without arguments)\n`)
    process.exit(2)
  }
  return { transport: 'http', host: m[1], port: Number(m[2]) }
}

/** The first stdout line of an HTTP echo server; the driver reads the address from it. */
function announce (host, port) {
  process.stdout.write(`listening on http://${host}:${port}/mcp\n`)
}

/** Calls `stop` when stdin reaches end of file: the driver's way to stop an HTTP server. */
function onStdinClosed (stop) {
  process.stdin.on('data', () => {})
  process.stdin.on('end', stop)
  process.stdin.resume()
}

module.exports = { parseArgs, announce, onStdinClosed }
