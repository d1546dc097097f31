'use strict'
// libmcp/sdk's Client where the SDK's Client checks or sends more than a call: `callTool` checking
// `structuredContent` against the tool's listed `outputSchema` and parsing by `resultSchema`,
// `_meta` of a call, `request(req, schema)`, `setLoggingLevel`, `subscribeResource` /
// `unsubscribeResource`, and `notification()` refused. The same client code runs with the SDK's
// Client and with libmcp/sdk's against the SDK's low-level server (2025-11-25), which checks
// nothing it answers (fixtures/sdk_lowlevel_server.js); then libmcp/sdk's Client against a libmcp
// server (2026-07-28).
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { z } = require('zod')
const { Client: SdkClient } = require('@modelcontextprotocol/sdk/client/index.js')
const { StdioClientTransport: SdkStdio } = require('@modelcontextprotocol/sdk/client/stdio.js')
const { CallToolResultSchema, ResourceUpdatedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js')
const LIBMCP = require('../lib/sdk')
const { Server } = require('..')

const LOWLEVEL = { command: process.execPath, args: [path.join(__dirname, 'fixtures', 'sdk_lowlevel_server.js')], stderr: 'ignore' }

/** A rejection as `{code, message}` (the message's first part: the validators' words differ). */
const rejection = (e) => ({ code: e.code, message: String(e.message).split(': ').slice(0, 2).join(': ') })

async function seen (ClientClass, transport) {
  const client = new ClientClass({ name: 'c', version: '1' })
  const updates = []
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri))
  await client.connect(transport)
  const out = {}
  try {
    // Before a listing nothing is known of output schemas: nothing is checked.
    out.unlisted = (await client.callTool({ name: 'wrong', arguments: {} })).structuredContent
    await client.listTools()
    out.good = (await client.callTool({ name: 'good', arguments: {} })).structuredContent
    out.wrong = await client.callTool({ name: 'wrong', arguments: {} }).catch(rejection)
    out.missing = await client.callTool({ name: 'missing', arguments: {} }).catch(rejection)
    out.failing = await client.callTool({ name: 'failing', arguments: {} })
    out.meta = (await client.callTool({ name: 'meta', arguments: {}, _meta: { trace: 't-1' } })).content
    out.parsed = await client.callTool({ name: 'good', arguments: {} }, CallToolResultSchema)
    out.refused = await client.callTool({ name: 'good', arguments: {} }, z.object({ content: z.array(z.object({ type: z.literal('image') })) }))
      .catch((e) => ({ zod: /ZodError$/.test(e.name), path: e.issues?.[0]?.path }))
    out.setLevel = await client.setLoggingLevel('error')
    out.level = await client.request({ method: 'acme/level' }, z.object({ level: z.string().nullable() }))
    out.requestRefused = await client.request({ method: 'acme/level' }, z.object({ level: z.number() })).catch((e) => ({ zod: /ZodError$/.test(e.name) }))
    out.subscribed = await client.subscribeResource({ uri: 'test://watched' })
    for (let i = 0; i < 100 && updates.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    out.updates = updates.slice()
    out.unsubscribed = await client.unsubscribeResource({ uri: 'test://watched' })
  } finally {
    await client.close()
  }
  return out
}

test('libmcp/sdk\'s Client checks, parses and sends as the SDK\'s Client, against the SDK\'s low-level server', async () => {
  const want = await seen(SdkClient, new SdkStdio(LOWLEVEL))
  const got = await seen(LIBMCP.Client, new LIBMCP.StdioClientTransport(LOWLEVEL))
  assert.deepEqual(want.wrong, { code: -32602, message: 'MCP error -32602: Structured content does not match the tool\'s output schema' })
  assert.deepEqual(want.missing, { code: -32600, message: 'MCP error -32600: Tool missing has an output schema but did not return structured content' })
  assert.deepEqual(want.meta, [{ type: 'text', text: '{"trace":"t-1"}' }])
  assert.deepEqual(want.refused, { zod: true, path: ['content', 0, 'type'] })
  assert.deepEqual(want.level, { level: 'error' })
  assert.deepEqual(want.updates, ['test://watched'])
  assert.deepEqual(got, want)
})

test('libmcp/sdk\'s Client on a 2026-07-28 server: subscribeResource listens, setLoggingLevel and notification() are refused naming why', async () => {
  const server = new Server({ name: 'modern', version: '1' })
  server.resource('watched', 'test://watched', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }))
  server.tool('add', { inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } },
    () => ({ content: [], structuredContent: { sum: 2 } }))
  const http = await server.serveHttp({ port: 0 })
  const client = new LIBMCP.Client({ name: 'c', version: '1' })
  const updates = []
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri))
  try {
    await client.connect(new LIBMCP.StreamableHTTPClientTransport(new URL(http.url)))
    await client.listTools()
    assert.deepEqual((await client.callTool({ name: 'add', arguments: {} })).structuredContent, { sum: 2 })
    await assert.rejects(client.setLoggingLevel('debug'), /a 2026-07-28 server has no logging\/setLevel/)
    await assert.rejects(client.notification({ method: 'notifications/acme' }), /cannot send notifications\/acme: the engine client sends the protocol's own notifications itself/)
    assert.deepEqual(await client.subscribeResource({ uri: 'test://watched' }), {})
    server.notifyResourceUpdated('test://watched')
    for (let i = 0; i < 100 && updates.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    assert.deepEqual(updates, ['test://watched'])
    assert.deepEqual(await client.unsubscribeResource({ uri: 'test://watched' }), {})
  } finally {
    await client.close()
    await http.close()
    await server.close()
  }
})
