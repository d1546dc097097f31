'use strict'
// Exact messages on the wire between a raw JSON-RPC peer and the Node fixture server, both eras:
// what the engine adds (resultType, serverInfo in _meta, the initialize result), how handler
// results and failures look, MRTR as input_required (modern) and as a real elicitation request
// (legacy), and that bad input leaves the connection usable.
const test = require('node:test')
const assert = require('node:assert/strict')
const { SERVER, LEGACY, MODERN, linePeer } = require('./helpers')

const SERVER_INFO = { name: 'node-fixture', version: '1.2.3' }

/** The fixture server as a line-oriented peer. */
const peer = () => linePeer([SERVER])

const meta = (caps = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': caps,
  'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
})

test('modern era on the wire', async () => {
  const p = peer()
  p.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: meta() } })
  assert.deepEqual(await p.recv(), {
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
  })
  p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'throws', _meta: meta() } })
  assert.deepEqual((await p.recv()).result, {
    content: [{ type: 'text', text: 'boom' }], isError: true, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
  })
  p.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'rpc_error', _meta: meta() } })
  assert.deepEqual(await p.recv(), { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'no such thing', data: { why: 'test' } } })
  const ask = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
  p.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'greet', _meta: meta({ elicitation: {} }) } })
  assert.deepEqual((await p.recv()).result, {
    resultType: 'input_required',
    inputRequests: { who: { method: 'elicitation/create', params: { mode: 'form', message: 'What is your name?', requestedSchema: ask } } },
    _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
  })
  p.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'greet', inputResponses: { who: { action: 'accept', content: { name: 'Wire' } } }, _meta: meta({ elicitation: {} }) } })
  assert.deepEqual((await p.recv()).result.content, [{ type: 'text', text: 'Hello, Wire!' }])
  p.send('{"jsonrpc": "2.0", "id": 6, "method": ')
  assert.equal((await p.recv()).error.code, -32700)
  p.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'after' }, _meta: meta() } })
  assert.equal((await p.recv()).result.content[0].text, 'after')
  assert.equal(await p.close(), 0)
})

test('legacy era on the wire', async () => {
  const p = peer()
  p.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'wire', version: '1' } } })
  assert.deepEqual(await p.recv(), {
    jsonrpc: '2.0',
    id: 0,
    result: {
      protocolVersion: LEGACY,
      capabilities: { logging: {}, tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} },
      serverInfo: SERVER_INFO,
      instructions: 'fixture instructions',
    },
  })
  p.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  p.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } })
  assert.deepEqual(await p.recv(), { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } })
  // The MRTR handler becomes a real elicitation/create request to the client.
  p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet' } })
  const req = await p.recv()
  assert.equal(req.method, 'elicitation/create')
  assert.equal(req.params.message, 'What is your name?')
  p.send({ jsonrpc: '2.0', id: req.id, result: { action: 'accept', content: { name: 'Legacy' } } })
  assert.deepEqual(await p.recv(), { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Hello, Legacy!' }] } })
  p.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'bad_return' } })
  const bad = await p.recv()
  assert.equal(bad.error.code, -32603)
  assert.match(bad.error.message, /returned number/)
  assert.equal(await p.close(), 0)
})
