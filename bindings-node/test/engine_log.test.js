'use strict'
// The engine's own diagnostics reach `setEngineLog`'s listener with their level, target and
// fields, at the level asked for and nothing below it: a handler past `handlerTimeoutMs` (a warning
// of the engine's deadline), a request the HTTP endpoint refuses (a debug event) and a spawned
// server's stderr line (an info event). The server
// runs in this process, since the listener is this process's.
const test = require('node:test')
const assert = require('node:assert/strict')
const http = require('node:http')
const { Server, Client, McpError, InvalidArgumentError, setEngineLog } = require('..')
const { MODERN } = require('./helpers')

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Collects the engine's events from `level` on (until the next `setEngineLog`). */
function collect (level) {
  const entries = []
  setEngineLog((entry) => entries.push(entry), { level })
  return entries
}

/** A server whose `slow` tool outlives the 100 ms handler timeout, served over HTTP until `t`
 * ends (the engine's log is stopped then too); resolves to its URL. */
async function slowServer (t) {
  t.after(() => setEngineLog(null))
  const server = new Server({ name: 'engine-log', version: '1' }, { handlerTimeoutMs: 100 })
  server.tool('slow', {}, (_args, ctx) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve('late'), 2000)
    ctx.signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve('aborted')
    })
  }))
  const serving = await server.serveHttp({ host: '127.0.0.1', port: 0 })
  t.after(() => server.close())
  return serving.url
}

/** Calls `slow` and checks that the engine answered with its timeout error. */
async function callSlow (url) {
  const client = await Client.connectHttp(url, { protocolVersion: MODERN })
  try {
    await assert.rejects(client.callTool('slow', {}), (e) => e instanceof McpError && e.code === -32603 && /did not answer within 100 ms/.test(e.message))
  } finally {
    await client.close()
  }
}

/** A POST whose Host the loopback server refuses (421); resolves to the status. */
function refusedPost (url) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { host: 'rebinding.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    }, (res) => {
      res.resume()
      resolve(res.statusCode)
    })
    req.on('error', reject)
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))
  })
}

async function until (what, check) {
  for (let i = 0; i < 250; i++) {
    const found = check()
    if (found) return found
    await sleep(20)
  }
  assert.fail(`timed out waiting for ${what}`)
}

test('a handler timeout arrives as a warning of the engine, with its target and fields', async (t) => {
  const url = await slowServer(t)
  const entries = collect(undefined)
  await callSlow(url)
  const entry = await until('the timeout warning', () => entries.find((e) => /did not answer within 100 ms/.test(e.message)))
  assert.deepEqual(entry, {
    level: 'warn',
    target: 'libmcp::server::deadline',
    message: "Internal error: the handler did not answer within 100 ms (the server's handler_timeout)",
    fields: { method: 'tools/call' },
  })
  // 'warn' is the default level: no debug event came.
  assert.deepEqual(entries.filter((e) => e.level === 'debug' || e.level === 'info'), [])
})

test('a refused HTTP request is a debug event, delivered only when debug is asked for', async (t) => {
  const url = await slowServer(t)
  const atWarn = collect('warn')
  assert.equal(await refusedPost(url), 421)
  const atDebug = collect('debug')
  assert.equal(await refusedPost(url), 421)
  const entry = await until('the refusal', () => atDebug.find((e) => e.target === 'libmcp::http'))
  assert.equal(entry.level, 'debug')
  assert.match(entry.message, /^refused: .*Host.*rebinding\.example/)
  await sleep(100)
  assert.deepEqual(atWarn, [], 'the first refusal was below the level then')
})

test('nothing below the level, and nothing after setEngineLog(null)', async (t) => {
  const url = await slowServer(t)
  const atError = collect('error')
  await callSlow(url)
  const stopped = collect('debug')
  setEngineLog(null)
  await callSlow(url)
  assert.equal(await refusedPost(url), 421)
  // The warning is logged before the timeout's answer is sent; give a queued one time to land.
  await sleep(200)
  assert.deepEqual(atError, [])
  assert.deepEqual(stopped, [])
})

test('a spawned server\'s stderr lines are info events of libmcp::child_stderr', async (t) => {
  t.after(() => setEngineLog(null))
  const entries = collect('info')
  const server = require('node:path').join(__dirname, 'fixtures', 'server.js')
  const script = `process.stderr.write('starting up\\n'); require(${JSON.stringify(server)})`
  const client = await Client.connectStdio(process.execPath, ['-e', script])
  try {
    const entry = await until('the stderr line', () => entries.find((e) => e.target === 'libmcp::child_stderr'))
    assert.deepEqual(entry, { level: 'info', target: 'libmcp::child_stderr', message: 'starting up', fields: { program: process.execPath } })
  } finally {
    await client.close()
  }
})

test('setEngineLog: wrong arguments are refused', () => {
  assert.throws(() => setEngineLog('console'), (e) => e instanceof TypeError && /listener must be a function or null, got string/.test(e.message))
  assert.throws(() => setEngineLog(() => {}, 'debug'), (e) => e instanceof TypeError && /options must be an object, got string/.test(e.message))
  assert.throws(() => setEngineLog(() => {}, { level: 3 }), (e) => e instanceof TypeError && /level must be a string, got number/.test(e.message))
  assert.throws(() => setEngineLog(() => {}, { level: 'verbose' }),
    (e) => e instanceof InvalidArgumentError && e.message === 'setEngineLog: level must be one of debug, info, warn, error, got "verbose"')
})
