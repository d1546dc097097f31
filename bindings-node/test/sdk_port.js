'use strict'
// What the tests of the official TypeScript SDK's HTTP+SSE and URL elicitation example servers
// share (sdk_examples_sse.test.js, sdk_examples_url.test.js): the port of an example by its import
// lines, and running one on a free port.
const assert = require('node:assert/strict')
const net = require('node:net')
const path = require('node:path')
const { spawn } = require('node:child_process')

const SDK_DIR = path.join(path.dirname(require.resolve('@modelcontextprotocol/sdk/types.js')), '..', '..')
/** The SDK's example servers as published (ES modules). */
const EXAMPLES = path.join(SDK_DIR, 'dist', 'esm', 'examples', 'server')
/** The SDK modules whose names libmcp/sdk exports. */
const SERVER_API = ['mcp.js', 'sse.js', 'streamableHttp.js'].map((m) => `../../server/${m}`)

/** `source` with the server API imported from libmcp/sdk and every other relative import from the
 * SDK's published modules; throws unless some line changed. */
function ported (source) {
  let changed = 0
  const text = source.replace(/^(import .* from )'(\.\.?\/[^']+)';$/gm, (_line, head, spec) => {
    changed += 1
    if (SERVER_API.includes(spec)) return `${head}'libmcp/sdk';`
    const within = spec.startsWith('../../') ? spec.slice(6) : `examples/${spec.replace(/^\.\.\//, '').replace(/^\.\//, 'server/')}`
    return `${head}'@modelcontextprotocol/sdk/${within}';`
  })
  assert.ok(changed > 0, 'the example imports the SDK')
  return text
}

/** A port nothing listens on now. */
async function unusedPort () {
  const s = net.createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => s.once('listening', resolve))
  const { port } = s.address()
  await new Promise((resolve) => s.close(resolve))
  return port
}

/** Runs node with `args` and `env` added to this process's environment until its stdout matches
 * `ready`; resolves to `{output(), stop()}` (`output` what it printed so far). */
async function runExample (args, env, ready) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d
      if (ready.test(out)) resolve()
    })
    child.once('exit', (code) => reject(new Error(`${args.at(-1)} exited with ${code}: ${out}`)))
  })
  return { output: () => out, stop: () => child.kill() }
}

/** `s` with ISO times and UUIDs masked (they differ between runs). */
function masked (s) {
  return s.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
}

module.exports = { EXAMPLES, ported, unusedPort, runExample, masked }
