'use strict'
// The rest of the public API: Zod schemas, runtime add/remove with list_changed, listen(),
// notifyResourceUpdated, Client.connect, call/request (manual MRTR), logging, serverPid.
const test = require('node:test')
const assert = require('node:assert/strict')
const z = require('zod')
const { Server, Client, inputRequired, elicit } = require('..')
const { SERVER, LEGACY, MODERN } = require('./helpers')

test('Zod schemas and raw Zod shapes become JSON Schema', async () => {
  const server = new Server({ name: 'zod', version: '1' })
  server.tool('shape', { inputSchema: { text: z.string(), n: z.number().optional() } }, ({ text }) => text)
  server.tool('object', { inputSchema: z.object({ flag: z.boolean() }), outputSchema: z.object({ ok: z.boolean() }) },
    ({ flag }) => ({ content: [], structuredContent: { ok: flag } }))
  const http = await server.listen({ transport: 'http', port: 0 })
  const client = await Client.connect({ url: http.url })
  try {
    const { tools } = await client.listTools()
    const shape = tools.find((t) => t.name === 'shape')
    assert.deepEqual(shape.inputSchema.properties, { text: { type: 'string' }, n: { type: 'number' } })
    assert.deepEqual(shape.inputSchema.required, ['text'])
    const obj = tools.find((t) => t.name === 'object')
    assert.deepEqual(obj.outputSchema.properties, { ok: { type: 'boolean' } })
    assert.equal((await client.callTool('shape', { text: 'z' })).content[0].text, 'z')
    assert.deepEqual((await client.callTool('object', { flag: true })).structuredContent, { ok: true })
    // The engine validates arguments against the converted schema.
    const bad = await client.callTool('object', { flag: 'yes' }).catch((e) => e)
    assert.ok(bad.isError === true || typeof bad.code === 'number', 'rejected')
  } finally {
    await client.close()
    await server.close()
  }
})

for (const protocolVersion of [MODERN, LEGACY]) {
  test(`runtime registration while serving, ${protocolVersion}`, async () => {
    const server = new Server({ name: 'runtime', version: '1' })
    const first = server.tool('first', {}, () => 'first')
    const http = await server.serveHttp()
    const seen = []
    const client = await Client.connectHttp(http.url, { protocolVersion, onNotification: (method) => seen.push(method) })
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['first'])
      server.tool('second', {}, () => 'second')
      server.resource('late', 'test://late', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'late' }] }))
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['first', 'second'])
      assert.equal((await client.readResource('test://late')).contents[0].text, 'late')
      first.update({ description: 'updated' }, () => 'first, updated')
      assert.equal((await client.listTools()).tools[0].description, 'updated')
      assert.equal((await client.callTool('first', {})).content[0].text, 'first, updated')
      first.disable()
      assert.equal(first.enabled, false)
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['second'])
      assert.throws(() => server.tool('first', {}, () => 'clash'), /already registered/)
      first.enable()
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['second', 'first'])
      assert.throws(() => first.update({ inputSchema: 'bad' }), TypeError)
      assert.equal(first.remove(), true)
      assert.equal(first.remove(), false)
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['second'])
      server.tool('first', {}, () => 'first again').remove()
      server.notifyResourceUpdated('test://late')
      if (protocolVersion === LEGACY) {
        // Legacy sessions hear of every change (modern clients ask with subscriptions/listen).
        // One per change: add, add resource, update, disable, enable, remove, add, remove.
        for (let i = 0; i < 100 && seen.length < 8; i++) await new Promise((resolve) => setTimeout(resolve, 20))
        const tools = 'notifications/tools/list_changed'
        assert.deepEqual(seen, [tools, 'notifications/resources/list_changed', tools, tools, tools, tools, tools, tools])
      } else {
        assert.deepEqual(seen, [])
      }
    } finally {
      await client.close()
      await server.close()
    }
  })
}

test('call and request: automatic and manual input rounds', async () => {
  const client = await Client.connectStdio(process.execPath, [SERVER], {
    onElicitation: async () => ({ action: 'accept', content: { name: 'Manual' } }),
    stderr: 'ignore',
  })
  try {
    assert.equal(typeof client.serverPid, 'number')
    const first = await client.request('tools/call', { name: 'greet', arguments: {} })
    assert.equal(first.resultType, 'input_required')
    assert.equal(first.inputRequests.who.method, 'elicitation/create')
    const retry = await client.request('tools/call', {
      name: 'greet', arguments: {}, inputResponses: { who: { action: 'accept', content: { name: 'Twice' } } },
    })
    assert.equal(retry.content[0].text, 'Hello, Twice!')
    const auto = await client.call('tools/call', { name: 'greet', arguments: {} })
    assert.equal(auto.content[0].text, 'Hello, Manual!')
  } finally {
    await client.close()
  }
})

test('elicitationAnswer: the engine checks the answer against the schema asked with, in both eras', async () => {
  const server = new Server({ name: 'checked', version: '1' })
  const form = { type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] }
  const seen = []
  server.tool('age', {}, (_a, ctx) => {
    let answer
    try {
      answer = ctx.elicitationAnswer('age', form)
    } catch (e) {
      seen.push([e.name, e.code, e.message])
      throw e
    }
    return answer ? `age ${answer.content.age}` : inputRequired({ age: elicit('Age?', form) })
  })
  const http = await server.serveHttp()
  try {
    for (const protocolVersion of [MODERN, LEGACY]) {
      for (const [content, expect] of [[{ age: 7 }, 'age 7'], [{ age: -1 }, null]]) {
        seen.length = 0
        const client = await Client.connectHttp(http.url, { protocolVersion, onElicitation: async () => ({ action: 'accept', content }) })
        try {
          if (expect !== null) {
            assert.equal((await client.callTool('age', {})).content[0].text, expect, protocolVersion)
            assert.deepEqual(seen, [])
            continue
          }
          const message = 'Invalid params: the answer to the form elicitation "age" does not match the requestedSchema: /age: -1 is less than the minimum of 0'
          // Thrown out of the handler, the McpError is the call's JSON-RPC error.
          await assert.rejects(client.callTool('age', {}), { name: 'McpError', code: -32602, message }, protocolVersion)
          assert.deepEqual(seen, [['McpError', -32602, message]], protocolVersion)
        } finally {
          await client.close()
        }
      }
    }
  } finally {
    await server.close()
  }
})

test('logging reaches a client that asked for it', async () => {
  const server = new Server({ name: 'logs', version: '1' })
  server.tool('log', {}, (_a, ctx) => {
    const sent = ctx.log('warning', { n: 1 }, 'test')
    assert.throws(() => ctx.log('loud', {}), TypeError)
    return String(sent)
  })
  server.tool('ask', {}, (_a, ctx) => ctx.inputResponse('x') ? 'answered' : inputRequired({ x: elicit('?', { type: 'object' }) }))
  const http = await server.serveHttp()
  try {
    for (const [protocolVersion, logLevel, expect] of [[MODERN, 'info', 'true'], [MODERN, undefined, 'false'], [LEGACY, 'error', 'false'], [LEGACY, 'debug', 'true']]) {
      const logs = []
      const client = await Client.connectHttp(http.url, {
        protocolVersion,
        logLevel,
        onNotification: (method, params) => { if (method === 'notifications/message') logs.push(params) },
      })
      assert.equal((await client.callTool('log', {})).content[0].text, expect, `${protocolVersion} ${logLevel}`)
      if (expect === 'true') assert.deepEqual(logs, [{ level: 'warning', logger: 'test', data: { n: 1 } }])
      else assert.deepEqual(logs, [])
      // Without an elicitation handler the client cannot answer: the call fails, the client carries on.
      await assert.rejects(client.callTool('ask', {}))
      await client.close()
    }
  } finally {
    await server.close()
  }
})

for (const protocolVersion of [MODERN, LEGACY]) {
  test(`subscribe: list changes and resource updates, ${protocolVersion}`, async () => {
    const server = new Server({ name: 'subs', version: '1' })
    server.tool('first', {}, () => 'first')
    server.resource('watched', 'test://watched', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'w' }] }))
    const http = await server.serveHttp()
    const client = await Client.connectHttp(http.url, { protocolVersion })
    try {
      const sub = await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ['test://watched'] })
      assert.equal(sub.acknowledged.toolsListChanged, true)
      server.tool('second', {}, () => 'second')
      const changed = await sub.next()
      assert.equal(changed.method, 'notifications/tools/list_changed')
      // Modern notifications name their listen stream; legacy ones carry no params.
      if (protocolVersion === MODERN) assert.equal(typeof changed.params._meta['io.modelcontextprotocol/subscriptionId'], 'number')
      else assert.equal(changed.params, null)
      server.notifyResourceUpdated('test://other')
      server.notifyResourceUpdated('test://watched')
      const updated = await sub.next()
      assert.equal(updated.method, 'notifications/resources/updated')
      assert.equal(updated.params.uri, 'test://watched')
      const pending = sub.next()
      await sub.close()
      assert.equal(await pending, undefined)
      // for await ends when the subscription is closed from elsewhere.
      const sub2 = await client.subscribe({ toolsListChanged: true })
      setTimeout(() => server.tool('third', {}, () => 'third'), 20)
      for await (const n of sub2) {
        assert.equal(n.method, 'notifications/tools/list_changed')
        break
      }
    } finally {
      await client.close()
      await server.close()
    }
  })
}
