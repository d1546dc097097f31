'use strict'
// The server limits of `new Server(info, {pageSize, maxMessageBytes, maxInFlight, ...})`: wrong
// values are refused when the server is made, and each limit, breached over stdio in the modern
// era, gets its exact error while the connection goes on serving.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Server, InvalidArgumentError } = require('..')
const { MODERN, linePeer } = require('./helpers')

const INFO = { name: 'limits', version: '1' }

test('wrongly typed limits are TypeErrors, zero ones InvalidArgumentErrors naming the option', () => {
  for (const [k, v] of [['pageSize', '5'], ['maxMessageBytes', -1], ['maxInFlight', 1.5], ['stateTtlMs', null], ['maxInputRounds', 2 ** 60]]) {
    assert.throws(() => new Server(INFO, { [k]: v }), (e) => e instanceof TypeError && e.message.startsWith(`${k} must be a non-negative integer`), k)
  }
  for (const k of ['pageSize', 'maxMessageBytes', 'maxInFlight', 'maxInputRounds', 'maxRequestStateBytes', 'stateTtlMs', 'clientRequestTimeoutMs', 'handlerTimeoutMs']) {
    assert.throws(() => new Server(INFO, { [k]: 0 }), (e) => e instanceof InvalidArgumentError && e.message === `${k}: must not be zero`, k)
  }
  assert.throws(() => new Server(INFO, { maxInputRounds: 2 ** 40 }), (e) => e instanceof InvalidArgumentError && e.message === 'maxInputRounds is too large')
  // Every limit at once is fine.
  new Server(INFO, { pageSize: 1, maxMessageBytes: 1024, maxInFlight: 1, maxInputRounds: 2, maxRequestStateBytes: 64, stateTtlMs: 1000, clientRequestTimeoutMs: 1000 }) // eslint-disable-line no-new
})

/** A server with pageSize 1, maxMessageBytes 512, maxInFlight 1 and maxRequestStateBytes 64 over
 * stdio, as a line peer. */
function peer () {
  const pkg = path.join(__dirname, '..')
  const script = `
    const { Server, inputRequired, elicit } = require(${JSON.stringify(pkg)})
    const server = new Server({ name: 'limits', version: '1' }, { pageSize: 1, maxMessageBytes: 512, maxInFlight: 1, maxRequestStateBytes: 64 })
    server.tool('echo', {}, ({ text }) => String(text))
    server.tool('sleep', {}, () => new Promise((resolve) => setTimeout(() => resolve('slept'), 300)))
    server.tool('ask', {}, ({ size }) => inputRequired({ name: elicit('Name?', { type: 'object', properties: { name: { type: 'string' } } }) }, 'x'.repeat(size)))
    server.serveStdio()
  `
  return linePeer(['-e', script])
}

const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} }
const call = (id, name, args = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } })

test('each limit breached over stdio gets its error and the connection goes on', async () => {
  const p = peer()
  // pageSize: one tool per page, then the next page from the cursor.
  const names = []
  let cursor
  for (let id = 1; id <= 3; id++) {
    p.send({ jsonrpc: '2.0', id, method: 'tools/list', params: { ...(cursor ? { cursor } : {}), _meta: meta } })
    const page = (await p.recv()).result
    assert.equal(page.tools.length, 1)
    names.push(page.tools[0].name)
    cursor = page.nextCursor
    assert.equal(typeof cursor, id < 3 ? 'string' : 'undefined')
  }
  assert.deepEqual(names, ['echo', 'sleep', 'ask'])

  // maxRequestStateBytes: a 64-byte state is sealed, a 65-byte one fails the request; a client
  // token longer than a sealed 64-byte state (and within maxMessageBytes) is refused before it is
  // opened.
  const asking = { ...meta, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }
  const ask = (id, args, extra = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask', arguments: args, ...extra, _meta: asking } })
  p.send(ask(10, { size: 64 }))
  const sealed = (await p.recv()).result
  assert.equal(sealed.resultType, 'input_required')
  assert.equal(typeof sealed.requestState, 'string')
  p.send(ask(11, { size: 65 }))
  const tooBig = await p.recv()
  assert.equal(tooBig.id, 11)
  assert.equal(tooBig.error.code, -32603)
  assert.match(tooBig.error.message, /requestState is 65 bytes, more than max_request_state_bytes \(64\)/)
  assert.ok(sealed.requestState.length < 200, sealed.requestState)
  p.send(ask(12, { size: 1 }, { requestState: 'A'.repeat(200), inputResponses: {} }))
  const forged = await p.recv()
  assert.equal(forged.id, 12)
  assert.equal(forged.error.code, -32602)
  assert.match(forged.error.message, /longer than a sealed state of 64 bytes/)

  // maxMessageBytes: a 600-byte line is refused by its size; the next one is served.
  const big = JSON.stringify(call(3, 'echo', { text: 'x'.repeat(600) }))
  p.send(big)
  const refused = await p.recv()
  assert.equal(refused.id ?? null, null) // the line was not read as JSON: no id to answer
  assert.equal(refused.error.code, -32600)
  assert.match(refused.error.message, /512/)
  p.send(call(4, 'echo', { text: 'after the big one' }))
  assert.equal((await p.recv()).result.content[0].text, 'after the big one')

  // maxInFlight: a second request while one sleeps gets -32603 with data.maxInFlight at once.
  p.send(call(5, 'sleep'))
  p.send(call(6, 'echo', { text: 'too many' }))
  const busy = await p.recv()
  assert.equal(busy.id, 6)
  assert.equal(busy.error.code, -32603)
  assert.equal(busy.error.data.maxInFlight, 1)
  assert.equal((await p.recv()).result.content[0].text, 'slept')
  p.send(call(7, 'echo', { text: 'served again' }))
  assert.equal((await p.recv()).result.content[0].text, 'served again')
  assert.equal(await p.close(), 0)
})

test('serveHttp head limits: refused values reject naming the option; a breach gets 431 and the server serves on', async () => {
  const server = new Server(INFO)
  server.tool('echo', {}, ({ text }) => String(text))
  await assert.rejects(server.serveHttp({ maxHeaderBytes: 100 }), (e) => e instanceof InvalidArgumentError &&
    e.message === 'maxHeaderBytes: 100 is below the least request head accepted (8192 bytes)')
  await assert.rejects(server.serveHttp({ maxHeaders: 0 }), (e) => e instanceof InvalidArgumentError && e.message === 'maxHeaders: must not be zero')
  for (const [k, v] of [['maxHeaderBytes', '8192'], ['maxHeaders', 1.5], ['maxBodyBytes', -1], ['maxSessions', null], ['sessionIdleTimeoutMs', {}]]) {
    await assert.rejects(server.serveHttp({ [k]: v }), (e) => e instanceof TypeError && e.message.startsWith(`${k} must be a non-negative integer`), k)
  }
  const http = await server.serveHttp({ maxHeaderBytes: 8192, maxHeaders: 20 })
  try {
    const initialize = (extra) => fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    })
    const big = await initialize({ 'x-padding': 'a'.repeat(9000) })
    assert.equal(big.status, 431)
    const many = await initialize(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x-pad-${i}`, '1'])))
    assert.equal(many.status, 431)
    const served = await initialize({ 'x-padding': 'a'.repeat(4000) })
    assert.equal(served.status, 200)
    assert.equal((await served.json()).result.protocolVersion, '2025-11-25')
  } finally {
    await http.close()
  }
})

test('handlerTimeoutMs: a late handler is answered with -32603 and aborted, its late answer dropped', async () => {
  const pkg = path.join(__dirname, '..')
  const p = linePeer(['-e', `
    const { Server } = require(${JSON.stringify(pkg)})
    const server = new Server({ name: 'limits', version: '1' }, { handlerTimeoutMs: 300 })
    let aborted = 0
    server.tool('slow', {}, (_a, ctx) => new Promise((resolve) => {
      ctx.signal.addEventListener('abort', () => { aborted += 1 })
      setTimeout(() => resolve('too late'), 600)
    }))
    server.tool('aborted', {}, () => String(aborted))
    server.serveStdio()
  `])
  p.send(call(1, 'slow'))
  const timedOut = await p.recv()
  assert.deepEqual(timedOut, {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32603, message: "Internal error: the handler did not answer within 300 ms (the server's handler_timeout)", data: { handlerTimeoutMs: 300 } },
  })
  // Past the handler's own answer (at 600 ms): the next message on the wire is the next answer.
  await new Promise((resolve) => setTimeout(resolve, 500))
  p.send(call(2, 'aborted'))
  const after = await p.recv()
  assert.equal(after.id, 2)
  assert.equal(after.result.content[0].text, '1')
  assert.equal(await p.close(), 0)
})
