'use strict'
// The libmcp Node client against the libmcp Node server (test/fixtures/server.js) over stdio, in
// both eras: every kind of handler, results and errors, MRTR from sync and async handlers,
// progress, cancellation through AbortSignal, timeouts and concurrent calls.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Client, McpError, CancelledError, TimeoutError, ErrorCode } = require('..')
const { SERVER, LEGACY, MODERN } = require('./helpers')

const answers = {
  onElicitation: async (params) => {
    if (params.message === 'What is your name?') return { action: 'accept', content: { name: 'Ada' } }
    return { action: 'accept', content: { ok: true } }
  },
  onRoots: async () => ({ roots: [{ uri: 'file:///tmp/a', name: 'a' }] }),
}

for (const [era, protocolVersion] of [['modern', MODERN], ['legacy', LEGACY]]) {
  test(`node client and node server, ${era} era`, async (t) => {
    const client = await Client.connectStdio(process.execPath, [SERVER], { protocolVersion, ...answers })
    t.after(() => client.close())

    await t.test('handshake', () => {
      assert.equal(client.era, era)
      assert.equal(client.protocolVersion, protocolVersion)
      assert.deepEqual(client.serverInfo, { name: 'node-fixture', version: '1.2.3' })
      assert.equal(client.instructions, 'fixture instructions')
      assert.deepEqual(Object.keys(client.serverCapabilities).sort(), ['completions', 'logging', 'prompts', 'resources', 'tools'])
    })

    await t.test('lists', async () => {
      const { tools } = await client.listTools()
      assert.deepEqual(tools[0], {
        name: 'echo',
        title: 'Echo',
        description: 'Echoes its text',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      })
      assert.ok(tools.some((x) => x.name === 'add' && x.outputSchema.required[0] === 'sum'))
      const { resources } = await client.listResources()
      assert.deepEqual(resources.find((r) => r.uri === 'test://static'), { uri: 'test://static', name: 'static', title: 'Static', mimeType: 'text/plain' })
      const { resourceTemplates } = await client.listResourceTemplates()
      assert.deepEqual(resourceTemplates, [{ uriTemplate: 'test://items/{id}', name: 'item', description: 'An item' }])
      const { prompts } = await client.listPrompts()
      assert.deepEqual(prompts, [{ name: 'hello', description: 'Says hello', arguments: [{ name: 'who', required: true }] }])
    })

    await t.test('tools: sync, async, structured', async () => {
      const echo = await client.callTool('echo', { text: 'hi' })
      assert.deepEqual(echo.content, [{ type: 'text', text: 'hi' }])
      const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
      assert.deepEqual(add.structuredContent, { sum: 5 })
      const ctx = await client.callTool('context', {})
      assert.equal(ctx.structuredContent.era, era)
      assert.equal(ctx.structuredContent.protocolVersion, protocolVersion)
      assert.equal(ctx.structuredContent.method, 'tools/call')
      assert.equal(ctx.structuredContent.round, 0)
      // The client declares form elicitation (it has a handler), no URL mode, no sampling.
      assert.deepEqual(ctx.structuredContent.caps, [true, true, false, false])
      assert.equal(ctx.structuredContent.closeStream, false, 'stdio cannot resume')
    })

    await t.test('errors from handlers', async () => {
      assert.deepEqual(await client.callTool('throws', {}), { content: [{ type: 'text', text: 'boom' }], isError: true })
      // As sent, with what the modern era adds for the transport.
      const raw = await client.callTool('throws', {}, { raw: true })
      assert.deepEqual([raw.resultType, raw._meta?.['io.modelcontextprotocol/serverInfo']?.name], era === 'modern' ? ['complete', 'node-fixture'] : [undefined, undefined])
      const rejected = await client.callTool('rejects', {})
      assert.equal(rejected.isError, true)
      assert.equal(rejected.content[0].text, 'async boom')
      await assert.rejects(client.callTool('rpc_error', {}), (e) => {
        assert.ok(e instanceof McpError)
        assert.equal(e.kind, 'rpc')
        assert.equal(e.code, ErrorCode.InvalidParams)
        assert.equal(e.message, 'no such thing')
        assert.deepEqual(e.data, { why: 'test' })
        return true
      })
      await assert.rejects(client.callTool('bad_return', {}), { code: ErrorCode.InternalError })
      // Arguments that fail the input schema, and an unknown tool.
      const invalid = await client.callTool('echo', { text: 7 }).catch((e) => e)
      assert.ok(invalid instanceof McpError || invalid.isError === true)
      await assert.rejects(client.callTool('no_such_tool', {}), { code: ErrorCode.InvalidParams })
      // The connection is still fine.
      assert.equal((await client.callTool('echo', { text: 'still' })).content[0].text, 'still')
    })

    await t.test('MRTR from sync and async handlers', async () => {
      assert.equal((await client.callTool('greet', {})).content[0].text, 'Hello, Ada!')
      const two = await client.callTool('two_rounds', {})
      assert.equal(two.content[0].text, 'state round-2, confirmed true')
    })

    await t.test('progress', async () => {
      const seen = []
      const r = await client.callTool('progress', {}, { onprogress: (p) => seen.push(p) })
      assert.equal(r.content[0].text, 'progressed')
      assert.deepEqual(seen, [{ progress: 1, total: 3, message: 'one' }, { progress: 2, total: 3, message: 'two' }])
    })

    await t.test('resources, templates, prompts, completion', async () => {
      const r = await client.readResource('test://static')
      assert.deepEqual(r.contents, [{ uri: 'test://static', mimeType: 'text/plain', text: 'static text' }])
      const item = await client.readResource({ uri: 'test://items/42' })
      assert.deepEqual(item.contents, [{ uri: 'test://items/42', text: 'item 42' }])
      await assert.rejects(client.readResource('test://nowhere'), (e) => e instanceof McpError && typeof e.code === 'number')
      const p = await client.getPrompt('hello', { who: 'Bob' })
      assert.deepEqual(p.messages, [{ role: 'user', content: { type: 'text', text: 'Hello Bob' } }])
      const c = await client.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'who', value: 'a' } })
      assert.deepEqual(c.completion, { values: ['alpha'], hasMore: false })
    })

    await t.test('cancellation through AbortSignal reaches the handler', async () => {
      const controller = new AbortController()
      const call = client.callTool('wait_for_cancel', {}, { signal: controller.signal })
      setTimeout(() => controller.abort(), 100)
      await assert.rejects(call, (e) => e instanceof CancelledError && e.kind === 'cancelled')
      let count = '0'
      for (let i = 0; i < 50 && count === '0'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        count = (await client.readResource('test://cancelled')).contents[0].text
      }
      assert.notEqual(count, '0', 'the handler saw its signal abort')
      await assert.rejects(client.callTool('echo', { text: 'x' }, { signal: AbortSignal.abort() }), CancelledError)
    })

    await t.test('timeout', async () => {
      await assert.rejects(client.callTool('wait_for_cancel', {}, { timeout: 100 }), (e) => e instanceof TimeoutError && e.kind === 'timeout')
    })

    await t.test('many concurrent calls', async () => {
      const n = 200
      const results = await Promise.all(Array.from({ length: n }, (_, i) =>
        i % 2 ? client.callTool('echo', { text: `m${i}` }) : client.callTool('add', { a: i, b: 1 })))
      results.forEach((r, i) => {
        if (i % 2) assert.equal(r.content[0].text, `m${i}`)
        else assert.equal(r.structuredContent.sum, i + 1)
      })
    })
  })
}

test('ping in both eras (server/discover in the modern one), and a closed connection fails it', async () => {
  const legacy = await Client.connectStdio(process.execPath, [SERVER], { protocolVersion: LEGACY })
  assert.deepEqual(await legacy.ping(), {})
  await legacy.close()
  const modern = await Client.connectStdio(process.execPath, [SERVER])
  assert.equal(modern.era, 'modern')
  assert.deepEqual(await modern.ping(), {})
  await modern.close()
  await assert.rejects(modern.ping(), (e) => e instanceof McpError && e.kind !== 'invalidArgument')
})
