'use strict'
// `ctx.sessionNotifier()`: a handler's handle on its legacy session, used after the request that
// took it was answered, exact on the wire over stdio, and each refusal as its typed error.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { LEGACY, MODERN, linePeer } = require('./helpers')

const peer = () => linePeer([path.join(__dirname, 'fixtures', 'notify_server.js')])

async function init (p, capabilities) {
  p.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'wire', version: '1' } } })
  assert.equal((await p.recv()).result.protocolVersion, LEGACY)
  p.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
}

async function call (p, id, name, args = {}, meta = undefined) {
  p.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } })
  const m = await p.recv()
  assert.equal(m.id, id, JSON.stringify(m))
  return m.result
}

const text = (r) => r.content[0].text

test('the session notifier sends after the answer, exactly', async () => {
  const p = peer()
  await init(p, { elicitation: { url: {} } })
  assert.equal(text(await call(p, 1, 'keep')), `kept ${LEGACY}`)
  p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send', arguments: { complete: 'pay-1' } } })
  assert.deepEqual(await p.recv(), { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'pay-1' } })
  assert.equal(text((await p.recv()).result), 'sent, open=true')
  p.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send', arguments: { method: 'notifications/message', params: { level: 'info', data: 'paid' } } } })
  assert.deepEqual(await p.recv(), { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'paid' } })
  assert.equal(text((await p.recv()).result), 'sent, open=true')
  assert.equal(text(await call(p, 4, 'send', { method: 'notifications/nope' })),
    'InvalidArgumentError: notifications/nope is not a server notification of protocol revision 2025-11-25')
  assert.equal(text(await call(p, 5, 'send', { method: 'notifications/elicitation/complete', params: { elicitationId: 5 } })),
    'InvalidArgumentError: invalid params: the notification notifications/elicitation/complete cannot be expressed in protocol revision 2025-11-25: params.elicitationId: must be of type string, not number')
  assert.equal(await p.close(), 0)
})

test('the session notifier refuses what it cannot send', async () => {
  const p = peer()
  await init(p, { elicitation: {} })
  assert.equal(text(await call(p, 1, 'keep')), `kept ${LEGACY}`)
  assert.equal(text(await call(p, 2, 'send', { complete: 'pay-2' })),
    'InvalidArgumentError: the client did not declare the elicitation.url capability')
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
  }
  assert.equal(text(await call(p, 3, 'keep', {}, meta)),
    'NoSessionError: no session to notify: protocol revision 2026-07-28 has no sessions; a request\'s notifications travel only in its own response stream')
  assert.equal(await p.close(), 0)
})
