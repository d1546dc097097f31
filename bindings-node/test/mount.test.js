'use strict'
// The MCP endpoint mounted in the application's own web server (lib/mount.js): an Express app
// (`handleRequest` after express.json()), a Fastify app (`handleRequest` on `request.raw`/
// `reply.raw` after `reply.hijack()`), a Hono app on @hono/node-server (`fetch`) and a bare
// node:http server, each with a route and an authentication step of its own. In each: both eras
// through the libmcp client, the official TypeScript SDK client, a handler reading a header the
// client set and the principal the application set, the application's route answering, a legacy
// session's GET stream resumed with Last-Event-ID, and a client going away mid-call cancelling
// the handler.
const test = require('node:test')
const assert = require('node:assert/strict')
const http = require('node:http')
const { Client: SdkClient } = require('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { Server, Client, InvalidArgumentError } = require('..')
const { LEGACY, MODERN, sseReader, post } = require('./helpers')
const { expressApp, fastifyApp, honoApp, nodeApp } = require('./fixtures/mount_apps')

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function makeServer () {
  const state = { cancelled: 0, started: 0 }
  const server = new Server({ name: 'mount-fixture', version: '1' })
  server.tool('whoami', {}, (_a, ctx) => JSON.stringify({
    tag: ctx.requestInfo?.headers['x-client-tag'] ?? null,
    principal: ctx.authInfo?.clientId ?? null,
    scopes: ctx.authInfo?.scopes ?? null,
    session: ctx.sessionId ?? null,
    era: ctx.era,
  }))
  server.tool('wait', {}, (_a, ctx) => new Promise((resolve) => {
    state.started += 1
    ctx.signal.addEventListener('abort', () => {
      state.cancelled += 1
      resolve('cancelled')
    })
  }))
  server.tool('change', {}, () => {
    server.tool('temporary', {}, () => 'temporary').remove()
    return 'changed'
  })
  return { server, state }
}

const HOSTS = [['Express', expressApp], ['Fastify', fastifyApp], ['Hono', honoApp], ['node:http', nodeApp]]
const HEADERS = { 'x-client-tag': 't-1', 'x-user': 'alice' }

async function until (what, check) {
  for (let i = 0; i < 250; i++) {
    if (check()) return
    await sleep(20)
  }
  assert.fail(`timed out waiting for ${what}`)
}

/** The next event on `next` that carries a list-changed notification. */
async function nextListChanged (next) {
  for (;;) {
    const e = await next()
    assert.ok(e, 'the stream ended before a tools/list_changed notification')
    if (e.data && JSON.parse(e.data).method === 'notifications/tools/list_changed') return e
  }
}

for (const [name, makeApp] of HOSTS) {
  test(`mounted in ${name}: both eras, a client header and the app's principal reach the handler, the app's route answers`, async () => {
    const { server } = makeServer()
    const app = await makeApp(server.mount())
    try {
      for (const protocolVersion of [MODERN, LEGACY]) {
        const client = await Client.connectHttp(app.url, { protocolVersion, headers: HEADERS })
        try {
          assert.equal(client.protocolVersion, protocolVersion)
          const seen = JSON.parse((await client.callTool('whoami', {})).content[0].text)
          assert.equal(seen.tag, 't-1')
          assert.equal(seen.principal, 'alice')
          assert.deepEqual(seen.scopes, ['mcp'])
          assert.equal(seen.era, protocolVersion === MODERN ? 'modern' : 'legacy')
          if (protocolVersion === MODERN) assert.equal(seen.session, null)
          else assert.match(seen.session, /^[0-9a-f]{64}$/)
          const many = await Promise.all(Array.from({ length: 16 }, () => client.callTool('whoami', {})))
          for (const r of many) assert.equal(JSON.parse(r.content[0].text).principal, 'alice')
          const health = await fetch(app.health)
          assert.equal(health.status, 200)
          assert.equal(await health.text(), 'ok')
        } finally {
          await client.close()
        }
      }
      // Without the header the application's step sets no principal.
      const anonymous = await Client.connectHttp(app.url, { protocolVersion: MODERN })
      assert.equal(JSON.parse((await anonymous.callTool('whoami', {})).content[0].text).principal, null)
      await anonymous.close()
    } finally {
      await app.close()
      await server.close()
    }
  })

  test(`mounted in ${name}: the official TypeScript SDK client`, async () => {
    const { server } = makeServer()
    const app = await makeApp(server.mount())
    const sdk = new SdkClient({ name: 'sdk-client', version: '1' })
    try {
      await sdk.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: HEADERS } }))
      const tools = await sdk.listTools()
      assert.deepEqual(tools.tools.map((t) => t.name).sort(), ['change', 'wait', 'whoami'])
      const seen = JSON.parse((await sdk.callTool({ name: 'whoami', arguments: {} })).content[0].text)
      assert.equal(seen.tag, 't-1')
      assert.equal(seen.principal, 'alice')
      assert.equal(seen.era, 'legacy')
      assert.equal(seen.session, sdk.transport.sessionId)
    } finally {
      await sdk.close()
      await app.close()
      await server.close()
    }
  })

  test(`mounted in ${name}: a legacy session's GET stream resumes with Last-Event-ID`, async () => {
    const { server } = makeServer()
    const app = await makeApp(server.mount())
    try {
      const init = await post(app.url, null, {
        jsonrpc: '2.0', id: 1, method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      })
      assert.equal(init.status, 200)
      const session = init.headers.get('mcp-session-id')
      assert.ok(session)
      await init.text()
      assert.equal((await post(app.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202)
      const streamHeaders = { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY }
      const first = new AbortController()
      const stream = await fetch(app.url, { headers: streamHeaders, signal: first.signal })
      assert.equal(stream.status, 200)
      assert.match(stream.headers.get('content-type'), /^text\/event-stream/)
      const next = sseReader(stream)
      const call = (id) => post(app.url, session, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'change', arguments: {} } }).then((r) => r.text())
      await call(2)
      const seen = await nextListChanged(next)
      assert.ok(seen.id, 'the event has an id')
      first.abort()
      // Changes while no stream is open are kept for the session.
      await call(3)
      await sleep(100)
      const second = new AbortController()
      const resumed = await fetch(app.url, { headers: { ...streamHeaders, 'last-event-id': seen.id }, signal: second.signal })
      assert.equal(resumed.status, 200)
      const replay = sseReader(resumed)
      const again = await nextListChanged(replay)
      assert.notEqual(again.id, seen.id)
      second.abort()
      const health = await fetch(app.health)
      assert.equal(await health.text(), 'ok')
    } finally {
      await app.close()
      await server.close()
    }
  })

  test(`mounted in ${name}: a client going away mid-call cancels the handler`, async () => {
    const { server, state } = makeServer()
    const app = await makeApp(server.mount())
    try {
      const body = JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'tools/call', params: {
          name: 'wait', arguments: {},
          _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      })
      const req = http.request(app.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json', accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'wait',
        },
      })
      req.on('error', () => {})
      req.end(body)
      await until('the handler to start', () => state.started === 1)
      req.destroy()
      await until('the handler to be cancelled', () => state.cancelled === 1)
      assert.equal(await (await fetch(app.health)).text(), 'ok')
    } finally {
      await app.close()
      await server.close()
    }
  })
}

test('mount options: the listener\'s own are refused, a second mount throws, Host is checked when listed', async () => {
  const { server } = makeServer()
  assert.throws(() => server.mount({ port: 3000 }), (e) => e instanceof InvalidArgumentError && /port is an option of serveHttp's own listener/.test(e.message))
  assert.throws(() => server.mount({ maxBodyBytes: -1 }), TypeError)
  assert.throws(() => server.mount({ allowedHosts: ['bad host'] }), (e) => e instanceof InvalidArgumentError && /allowedHosts/.test(e.message))
  const mcp = server.mount({ allowedHosts: ['mcp.example'], maxBodyBytes: 4096 })
  await mcp.ready
  assert.throws(() => server.mount(), /mounted already/)
  const app = await nodeApp(mcp)
  try {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } })
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'ping' }
    // fetch sets Host to 127.0.0.1:PORT, which is not listed.
    const refused = await fetch(app.url, { method: 'POST', headers, body: ping })
    assert.equal(refused.status, 421)
    const why = await refused.json()
    assert.match(why.error.message, /Host/)
    assert.match(why.error.message, /allowed_hosts|allowedHosts/)
    // A body past maxBodyBytes is refused by the engine (413) without being read whole.
    const big = await new Promise((resolve, reject) => {
      const req = http.request(app.url, { method: 'POST', headers: { ...headers, host: 'mcp.example' } }, resolve)
      req.on('error', reject)
      req.end('x'.repeat(1 << 20))
    })
    assert.equal(big.statusCode, 413)
    big.resume()
  } finally {
    await app.close()
    await server.close()
  }
})

test('serveHttp handlers see the request headers and the legacy session id too (no authInfo there)', async () => {
  const { server } = makeServer()
  const http = await server.serveHttp({ host: '127.0.0.1', port: 0 })
  try {
    const client = await Client.connectHttp(http.url, { protocolVersion: LEGACY, headers: HEADERS })
    const seen = JSON.parse((await client.callTool('whoami', {})).content[0].text)
    assert.equal(seen.tag, 't-1')
    assert.equal(seen.principal, null)
    assert.match(seen.session, /^[0-9a-f]{64}$/)
    await client.close()
  } finally {
    await server.close()
  }
})

test('Express: handleRequest as the route handler itself (next is ignored), and a body express.json() consumed without parsedBody is taken from req.body', async () => {
  const express = require('express')
  const { server } = makeServer()
  const mcp = server.mount()
  const app = express()
  app.use(express.json())
  app.all('/direct', mcp.handleRequest)
  app.all('/consumed', (req, res) => mcp.handleRequest(req, res))
  const listener = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)) })
  const base = `http://127.0.0.1:${listener.address().port}`
  try {
    for (const path of ['/direct', '/consumed']) {
      for (const protocolVersion of [MODERN, LEGACY]) {
        const client = await Client.connectHttp(base + path, { protocolVersion, headers: HEADERS })
        const seen = JSON.parse((await client.callTool('whoami', {})).content[0].text)
        assert.equal(seen.tag, 't-1', `${path} ${protocolVersion}`)
        await client.close()
      }
    }
  } finally {
    listener.closeAllConnections()
    await new Promise((resolve) => listener.close(resolve))
    await server.close()
  }
})

test('Fastify: the body reaches the engine as sent, so a malformed one gets the JSON-RPC parse error, not Fastify\'s own 400', async () => {
  const { server } = makeServer()
  const app = await fastifyApp(server.mount())
  try {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }
    const malformed = await fetch(app.url, { method: 'POST', headers, body: '{"jsonrpc": "2.0", "id": 1,' })
    const refused = await malformed.json()
    assert.equal(refused.jsonrpc, '2.0', JSON.stringify(refused))
    assert.equal(refused.error.code, -32700)
    // A well-formed one through the same route.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } })
    const ok = await fetch(app.url, { method: 'POST', headers, body: list })
    assert.equal(ok.status, 200)
    const text = await ok.text()
    const sse = ok.headers.get('content-type').startsWith('text/event-stream')
    const listed = JSON.parse(sse ? text.split('\n').find((l) => l.startsWith('data:')).slice(5) : text)
    assert.equal(listed.id, 2)
    assert.deepEqual(listed.result.tools.map((tool) => tool.name).sort(), ['change', 'wait', 'whoami'])
  } finally {
    await app.close()
    await server.close()
  }
})
