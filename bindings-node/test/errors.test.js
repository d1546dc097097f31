'use strict'
// Errors raised in this process: wrong argument types get a TypeError, definitions the core
// rejects an InvalidArgumentError (at registration), connection failures a TransportError.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Server, Client, McpError, InvalidArgumentError, TransportError, inputRequired } = require('..')
const { SERVER, runNode, FIXTURES } = require('./helpers')
const path = require('node:path')

test('wrong argument types from JS are TypeErrors', async () => {
  assert.throws(() => new Server(), TypeError)
  assert.throws(() => new Server({ name: 'x' }), /version must be a non-empty string/)
  assert.throws(() => new Server('x'), TypeError)
  const s = new Server({ name: 's', version: '1' })
  assert.throws(() => s.tool(42, {}, () => 'x'), /tool name must be a non-empty string, got number/)
  assert.throws(() => s.tool('t', {}, 'not a function'), /tool handler must be a function/)
  assert.throws(() => s.tool('t', [], () => 'x'), /tool config must be an object, got an array/)
  assert.throws(() => s.tool('t', { inputSchema: 'string' }, () => 'x'), /inputSchema must be a JSON Schema object/)
  assert.throws(() => s.resource('r', 7, () => ({})), /resource uri must be a non-empty string/)
  assert.throws(() => s.completion(null), /completion handler must be a function/)
  assert.throws(() => s.listen({ transport: 'carrier-pigeon' }), TypeError)
  assert.throws(() => inputRequired(['x']), TypeError)
  assert.throws(() => Client.connectStdio(7), TypeError)
  assert.throws(() => Client.connectStdio('node', 'not-an-array'), TypeError)
  assert.throws(() => Client.connectHttp(7), TypeError)
})

test('definitions the core rejects fail at registration with InvalidArgumentError', () => {
  const s = new Server({ name: 's', version: '1' })
  assert.throws(() => s.tool('has space', {}, () => 'x'), (e) => {
    assert.ok(e instanceof InvalidArgumentError && e instanceof McpError)
    assert.equal(e.kind, 'invalidArgument')
    assert.match(e.message, /has space/)
    return true
  })
  assert.throws(() => s.tool('bad_schema', { inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }, () => 'x'), InvalidArgumentError)
  assert.throws(() => s.resourceTemplate('t', 'test://{unclosed', () => ({})), InvalidArgumentError)
  assert.throws(() => s.prompt('p', { arguments: [{ title: 'no name' }] }, () => ({})), InvalidArgumentError)
  const ok = s.tool('fine', {}, () => 'x')
  assert.throws(() => s.tool('fine', {}, () => 'y'), /already registered/)
  assert.equal(ok.remove(), true)
  s.tool('fine', {}, () => 'again')
})

test('connection failures are TransportErrors', async () => {
  await assert.rejects(Client.connectStdio('/nonexistent/server-binary'), (e) => e instanceof TransportError && e.kind === 'transport')
  await assert.rejects(Client.connectStdio(process.execPath, ['-e', 'process.exit(3)'], { stderr: 'ignore' }), TransportError)
  await assert.rejects(Client.connectHttp('http://127.0.0.1:1/mcp'), TransportError)
  await assert.rejects(Client.connectStdio(process.execPath, [SERVER], { protocolVersion: '1999-01-01' }), InvalidArgumentError)
})

test('a server that dies mid-call fails the call, not the process', async () => {
  const c = await Client.connectStdio(process.execPath, [path.join(FIXTURES, 'dies.js')])
  await assert.rejects(c.callTool('die', {}), (e) => e instanceof TransportError)
  await c.close()
})

test('a throwing handler never ends the server process', async () => {
  const c = await Client.connectStdio(process.execPath, [SERVER])
  for (let i = 0; i < 20; i++) {
    assert.equal((await c.callTool(i % 2 ? 'throws' : 'rejects', {})).isError, true)
  }
  assert.equal((await c.callTool('echo', { text: 'alive' })).content[0].text, 'alive')
  await c.close()
  // Closing stdin ends the fixture with status 0 (no crash, no dangling handle).
  const r = await runNode(SERVER, [], { input: '' })
  assert.equal(r.code, 0, r.stderr)
})

test('McpError.missingCapability is the core-shaped -32021 error', () => {
  const e = McpError.missingCapability({ sampling: {} })
  assert.equal(e.code, -32021)
  assert.deepEqual(e.data, { requiredCapabilities: { sampling: {} } })
  assert.equal(e.message, 'Missing required client capability')
})
