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
  for (const k of ['pageSize', 'maxMessageBytes', 'maxInFlight', 'maxInputRounds', 'stateTtlMs', 'clientRequestTimeoutMs']) {
    assert.throws(() => new Server(INFO, { [k]: 0 }), (e) => e instanceof InvalidArgumentError && e.message === `${k}: must not be zero`, k)
  }
  assert.throws(() => new Server(INFO, { maxInputRounds: 2 ** 40 }), (e) => e instanceof InvalidArgumentError && e.message === 'maxInputRounds is too large')
  // Every limit at once is fine.
  new Server(INFO, { pageSize: 1, maxMessageBytes: 1024, maxInFlight: 1, maxInputRounds: 2, stateTtlMs: 1000, clientRequestTimeoutMs: 1000 }) // eslint-disable-line no-new
})

/** A server with pageSize 1, maxMessageBytes 512 and maxInFlight 1 over stdio, as a line peer. */
function peer () {
  const pkg = path.join(__dirname, '..')
  const script = `
    const { Server } = require(${JSON.stringify(pkg)})
    const server = new Server({ name: 'limits', version: '1' }, { pageSize: 1, maxMessageBytes: 512, maxInFlight: 1 })
    server.tool('echo', {}, ({ text }) => String(text))
    server.tool('sleep', {}, () => new Promise((resolve) => setTimeout(() => resolve('slept'), 300)))
    server.serveStdio()
  `
  return linePeer(['-e', script])
}

const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} }
const call = (id, name, args = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } })

test('each limit breached over stdio gets its error and the connection goes on', async () => {
  const p = peer()
  // pageSize: one tool per page, then the next page from the cursor.
  p.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } })
  const first = (await p.recv()).result
  assert.deepEqual(first.tools.map((t) => t.name), ['echo'])
  assert.equal(typeof first.nextCursor, 'string')
  p.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: first.nextCursor, _meta: meta } })
  const second = (await p.recv()).result
  assert.deepEqual(second.tools.map((t) => t.name), ['sleep'])
  assert.equal(second.nextCursor, undefined)

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
