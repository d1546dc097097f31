'use strict'
// What a host serves beside the engine's own methods, or asks the engine to do as the SDK does:
// handlers of request methods the specification does not define (`server.setRequestHandler`, and
// `server.server.setRequestHandler` of libmcp/sdk), in both eras, over HTTP; entries of its own
// in `resources/list` (`resourceLister`); answers as one JSON body (`jsonResponse`); legacy
// requests served without sessions (`legacyStateless`, the SDK's stateless mode).
const test = require('node:test')
const assert = require('node:assert/strict')
const { Server, Client, McpError, ErrorCode, InvalidArgumentError } = require('..')
const sdk = require('../lib/sdk')
const { Client: SdkClient } = require('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { z } = require('zod')
const { LEGACY, MODERN } = require('./helpers')

test('setRequestHandler answers a method the specification does not define, in both eras', async () => {
  const server = new Server({ name: 'custom', version: '1.0.0' })
  server.tool('echo', {}, () => 'x')
  server.setRequestHandler('acme/search', async (params, ctx) => ({ hits: [params.q, params.q.toUpperCase()], era: ctx.era }))
  server.setRequestHandler('acme/fail', () => { throw new McpError(ErrorCode.InvalidParams, 'no such index', { index: 'x' }) })
  server.setRequestHandler('acme/gone', () => ({}))
  server.setRequestHandler('acme/gone', null)
  for (const m of ['tools/call', 'ping', 'initialize', 'notifications/custom', 'rpc.x']) {
    assert.throws(() => server.setRequestHandler(m, () => ({})), InvalidArgumentError, m)
  }
  assert.throws(() => server.setRequestHandler('ping', () => ({})), /the specification defines it, and the engine answers it itself/)
  // A feature method a host may answer needs its capability declared, and no registered tool.
  assert.throws(() => server.setRequestHandler('tools/list', () => ({})), { name: 'InvalidArgumentError', message: 'answering tools/list needs the tools capability declared first (declare_capabilities)' })
  server.declareCapabilities({ tools: { listChanged: true } })
  assert.throws(() => server.setRequestHandler('tools/list', () => ({})), { name: 'InvalidArgumentError', message: 'tools/list is answered by the host\'s own handler, and tool "echo" is registered, which the engine would answer tools/list for: register one or the other' })
  assert.throws(() => server.setRequestHandler('acme/x', 'not a function'), TypeError)
  const http = await server.serveHttp({ host: '127.0.0.1', port: 0, legacySessions: true })
  try {
    for (const [era, protocolVersion] of [['modern', MODERN], ['legacy', LEGACY]]) {
      const client = await Client.connectHttp(http.url, { protocolVersion })
      try {
        const r = await client.request('acme/search', { q: 'mcp' })
        assert.deepEqual(r.hits, ['mcp', 'MCP'], era)
        assert.equal(r.era, era)
        await assert.rejects(client.request('acme/fail', {}), (e) => e.code === ErrorCode.InvalidParams && e.message.includes('no such index') && e.data.index === 'x')
        await assert.rejects(client.request('acme/gone', {}), (e) => e.code === ErrorCode.MethodNotFound, era)
      } finally {
        await client.close()
      }
    }
  } finally {
    await http.close()
  }
})

test('libmcp/sdk: server.server.setRequestHandler with a Zod request schema, driven by the SDK client', async () => {
  const mcp = new sdk.McpServer({ name: 'custom-sdk', version: '1.0.0' })
  mcp.registerTool('echo', {}, () => ({ content: [{ type: 'text', text: 'x' }] }))
  const Search = z.object({ method: z.literal('acme/search'), params: z.object({ q: z.string() }) })
  mcp.server.setRequestHandler(Search, async (request, extra) => ({ hits: [request.params.q], sessionKnown: typeof extra.sessionId === 'string' }))
  assert.throws(() => mcp.server.setRequestHandler(z.object({ method: z.literal('tools/call') }), () => ({})), InvalidArgumentError)
  assert.throws(() => mcp.server.setRequestHandler(z.object({ params: z.object({}) }), () => ({})), /method is a string literal/)
  const transport = new sdk.StreamableHTTPServerTransport({ sessionIdGenerator: () => 'unused' })
  await mcp.connect(transport)
  const web = require('node:http').createServer((req, res) => transport.handleRequest(req, res))
  await new Promise((resolve) => web.listen(0, '127.0.0.1', resolve))
  const client = new SdkClient({ name: 'sdk', version: '1' })
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${web.address().port}/mcp`)))
    const Result = z.object({ hits: z.array(z.string()), sessionKnown: z.boolean() })
    assert.deepEqual(await client.request({ method: 'acme/search', params: { q: 'mcp' } }, Result), { hits: ['mcp'], sessionKnown: true })
    // The request schema refuses params: -32603 with Zod's message, as the SDK answers.
    await assert.rejects(client.request({ method: 'acme/search', params: { q: 1 } }, Result), (e) => e.code === ErrorCode.InternalError)
    mcp.server.removeRequestHandler('acme/search')
    await assert.rejects(client.request({ method: 'acme/search', params: { q: 'mcp' } }, Result), (e) => e.code === ErrorCode.MethodNotFound)
  } finally {
    await client.close()
    await transport.close()
    web.closeAllConnections()
    await new Promise((resolve) => web.close(resolve))
  }
})

test('jsonResponse: a request whose handler sends progress is answered with one JSON body', async () => {
  const server = new Server({ name: 'json', version: '1.0.0' })
  server.tool('steps', {}, async (_args, ctx) => {
    ctx.progress(1, 2, 'half')
    await new Promise((resolve) => setTimeout(resolve, 20))
    return 'done'
  })
  const post = async (url) => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'steps' },
      body: JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'tools/call', params: {
          name: 'steps', arguments: {},
          _meta: { progressToken: 'p', 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    })
    return { type: r.headers.get('content-type'), text: await r.text() }
  }
  for (const jsonResponse of [false, true]) {
    const http = await server.serveHttp({ host: '127.0.0.1', port: 0, jsonResponse })
    try {
      const { type, text } = await post(http.url)
      if (jsonResponse) {
        assert.equal(type, 'application/json')
        assert.equal(JSON.parse(text).result.content[0].text, 'done')
      } else {
        assert.equal(type, 'text/event-stream')
        assert.match(text, /notifications\/progress/)
      }
    } finally {
      await http.close()
    }
  }
  // The SDK's option: a boolean.
  assert.throws(() => new sdk.StreamableHTTPServerTransport({ enableJsonResponse: 'yes' }), /enableJsonResponse must be a boolean/)
})

test('resourceLister: its entries follow the registered resources, paged by the engine, in both eras', async () => {
  const server = new Server({ name: 'lister', version: '1.0.0' }, { pageSize: 2 })
  server.resource('static', 'test://static', {}, (uri) => ({ contents: [{ uri: uri.href, text: 's' }] }))
  server.resourceTemplate('user', 'users://{id}', {}, (uri, { id }) => ({ contents: [{ uri: uri.href, text: `user ${id}` }] }))
  const seen = []
  server.resourceLister(async (params, ctx) => {
    seen.push(params.cursor === undefined ? 'first' : 'next')
    assert.equal(typeof ctx.requestId === 'string' || typeof ctx.requestId === 'number', true)
    return { resources: [{ uri: 'users://1', name: 'Ada' }, { uri: 'users://2', name: 'Grace', mimeType: 'text/plain' }] }
  })
  assert.throws(() => server.resourceLister('no'), TypeError)
  const http = await server.serveHttp({ host: '127.0.0.1', port: 0, legacySessions: true })
  try {
    for (const protocolVersion of [MODERN, LEGACY]) {
      const client = await Client.connectHttp(http.url, { protocolVersion })
      try {
        const first = await client.request('resources/list', {})
        assert.deepEqual(first.resources.map((r) => r.uri), ['test://static', 'users://1'])
        const second = await client.request('resources/list', { cursor: first.nextCursor })
        assert.deepEqual(second.resources.map((r) => r.uri), ['users://2'])
        assert.equal(second.resources[0].mimeType, 'text/plain')
        assert.equal(second.nextCursor, undefined)
        // A listed resource is read through the template that matches it.
        assert.equal((await client.readResource('users://2')).contents[0].text, 'user 2')
      } finally {
        await client.close()
      }
    }
    assert.deepEqual(seen, ['first', 'next', 'first', 'next'])
    server.resourceLister(() => ({ resources: [{ uri: 'users://3' }] }))
    const client = await Client.connectHttp(http.url, { protocolVersion: MODERN })
    try {
      await assert.rejects(client.request('resources/list', {}), (e) => e.code === ErrorCode.InternalError && /resource 0 of the resource lister's result needs a string uri and name/.test(e.message))
      server.resourceLister(null)
      assert.deepEqual((await client.request('resources/list', {})).resources.map((r) => r.uri), ['test://static'])
    } finally {
      await client.close()
    }
  } finally {
    await http.close()
  }
})

test('legacyStateless: legacy clients are served without a session', async () => {
  const server = new Server({ name: 'stateless', version: '1.0.0' })
  server.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => text)
  const http = await server.serveHttp({ host: '127.0.0.1', port: 0, legacyStateless: true })
  try {
    const init = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    })
    assert.equal(init.status, 200)
    assert.equal(init.headers.get('mcp-session-id'), null)
    assert.equal((await init.json()).result.protocolVersion, LEGACY)
    assert.equal((await fetch(http.url, { headers: { accept: 'text/event-stream' } })).status, 405)
    const client = await Client.connectHttp(http.url, { protocolVersion: LEGACY })
    try {
      assert.equal((await client.callTool('echo', { text: 'no session' })).content[0].text, 'no session')
    } finally {
      await client.close()
    }
  } finally {
    await http.close()
  }
})
