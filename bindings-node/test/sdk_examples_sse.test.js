'use strict'
// The official TypeScript SDK's example servers of the deprecated 2024-11-05 HTTP+SSE transport
// (`SSEServerTransport`), ported to libmcp by changing their import lines only (as
// sdk_examples.test.js ports the others), each run as published and as ported, driven by the SDK's
// own `SSEClientTransport` (and its Streamable HTTP client where the example serves both), and
// compared. Then the transport's own rules: the session id handlers see, POSTs before and after the
// stream, a refused stream, its options.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { LoggingMessageNotificationSchema } = require('@modelcontextprotocol/sdk/types.js')
const sdk = require('libmcp/sdk')

const { EXAMPLES, ported, unusedPort, runExample, masked } = require('./sdk_port')

const work = fs.mkdtempSync(path.join(__dirname, '.ported-sse-'))
test.after(() => fs.rmSync(work, { recursive: true, force: true }))

/** Both examples listen on port 3000: a module preloaded into the child moves that to `PORT`. */
const movePort = path.join(work, 'listen-on-port.cjs')
fs.writeFileSync(movePort, `const net = require('node:net')
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (port, ...rest) {
  return listen.call(this, port === 3000 ? Number(process.env.PORT) : port, ...rest)
}
`)

/** Runs `file` on a free port until it prints its banner; resolves to `{port, stop()}`. */
async function run (file) {
  const port = await unusedPort()
  const { stop } = await runExample(['--require', movePort, file], { PORT: String(port) }, /listening on port/)
  return { port, stop }
}

/** What the SDK client sees of a server at `url` over `kind` ('sse' or 'http'): the server's info
 * and tools, a call of `start-notification-stream` and its log messages; over SSE also where the
 * client was told to POST (`posts`: path and query, the session id masked). */
async function transcript (url, kind) {
  const logs = []
  const posts = []
  const client = new Client({ name: 'sse-examples-test', version: '1' })
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(masked(n.params.data)) })
  const seen = (target, init) => {
    if (init?.method === 'POST') {
      const u = new URL(target)
      posts.push(masked(u.pathname + u.search))
    }
    return fetch(target, init)
  }
  const transport = kind === 'sse' ? new SSEClientTransport(new URL(url), { fetch: seen }) : new StreamableHTTPClientTransport(new URL(url))
  await client.connect(transport)
  try {
    const tools = (await client.listTools()).tools
    const r = await client.callTool({ name: 'start-notification-stream', arguments: { interval: 10, count: 3 } })
    const out = { info: client.getServerVersion(), tools, result: r, logs }
    if (kind === 'sse') out.posts = [...new Set(posts)]
    return out
  } finally {
    if (kind === 'http') await transport.terminateSession().catch(() => {})
    await client.close()
  }
}

/** The examples, each with the client runs made against it (`[path, kind]`). */
const EXAMPLES_RUN = {
  'simpleSseServer.js': [['/mcp', 'sse']],
  'sseAndStreamableHttpCompatibleServer.js': [['/sse', 'sse'], ['/mcp', 'http']],
}

test('the SDK examples of the HTTP+SSE transport, ported by their import lines', { concurrency: true, timeout: 180_000 }, async (t) => {
  await Promise.all(Object.entries(EXAMPLES_RUN).map(([name, runs]) => t.test(name, async () => {
    const original = path.join(EXAMPLES, name)
    const copy = path.join(work, name.replace(/\.js$/, '.mjs'))
    fs.writeFileSync(copy, ported(fs.readFileSync(original, 'utf8')))
    const [want, got] = await Promise.all([original, copy].map(async (file) => {
      const server = await run(file)
      try {
        return await Promise.all(runs.map(([where, kind]) => transcript(`http://localhost:${server.port}${where}`, kind)))
      } finally {
        server.stop()
      }
    }))
    for (const [i, [, kind]] of runs.entries()) {
      // Over SSE the client POSTs to the example's `/messages` with the transport's session id.
      if (kind === 'sse') assert.deepEqual(want[i].posts, ['/messages?sessionId=UUID'])
      assert.equal(want[i].logs.length, name === 'simpleSseServer.js' ? 4 : 3)
    }
    assert.deepEqual(got, want)
  })))
})

/** An Express-free app in the examples' shape: GET /sse opens a session of a new server (a tool
 * `whoami` answers `extra.sessionId` and `extra.authInfo`), POST /messages?sessionId= routes to
 * it. `transports` holds them by id; `options` go to each transport. */
async function sseApp (options) {
  const transports = new Map()
  const app = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost')
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new sdk.SSEServerTransport('/messages', res, options)
      transports.set(transport.sessionId, transport)
      transport.onclose = () => transports.delete(transport.sessionId)
      const server = new sdk.McpServer({ name: 'sse-rules', version: '1' })
      server.registerTool('whoami', {}, async (extra) => ({ content: [{ type: 'text', text: JSON.stringify({ sessionId: extra.sessionId, authInfo: extra.authInfo }) }] }))
      await server.connect(transport).catch((e) => { app.emit('refused', e) })
    } else if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId'))
      if (transport === undefined) {
        res.writeHead(404).end('Session not found')
        return
      }
      req.auth = { token: 't', clientId: 'c', scopes: ['s'] }
      await transport.handlePostMessage(req, res).catch((e) => { app.emit('post-failed', e) })
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve))
  return { app, transports, url: `http://127.0.0.1:${app.address().port}` }
}

test('SSEServerTransport: handlers see the transport\'s session id, the stream ends the session', async () => {
  const { app, transports, url } = await sseApp()
  try {
    const client = new Client({ name: 'c', version: '1' })
    await client.connect(new SSEClientTransport(new URL(`${url}/sse`)))
    assert.equal(transports.size, 1)
    const [[id, transport]] = [...transports]
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    assert.equal(transport.sessionId, id)
    assert.ok(transport instanceof sdk.SSEServerTransport)
    const r = await client.callTool({ name: 'whoami', arguments: {} })
    assert.deepEqual(JSON.parse(r.content[0].text), { sessionId: id, authInfo: { token: 't', clientId: 'c', scopes: ['s'] } })
    // A message that is not JSON-RPC: the engine's 400, and `onerror` hears of it.
    const errors = []
    transport.onerror = (e) => errors.push(e.message)
    const bad = await fetch(`${url}/messages?sessionId=${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc": "2.0", "nonsense": 1}' })
    assert.equal(bad.status, 400)
    assert.equal(errors.length, 1)
    assert.match(errors[0], /^the engine refused the message with HTTP 400: /)
    // The client goes away: the stream ends, onclose runs, and a POST after it is the SDK's 500.
    const closed = new Promise((resolve) => { const was = transport.onclose; transport.onclose = () => { was(); resolve() } })
    await client.close()
    await closed
    assert.equal(transports.size, 0)
    const res = { status: 0, writeHead (s) { this.status = s; return this }, end () {}, on () {} }
    await assert.rejects(transport.handlePostMessage(Object.assign(new http.IncomingMessage(null), { rawHeaders: [] }), res, {}), /^Error: SSE connection not established$/)
    assert.equal(res.status, 500)
  } finally {
    app.close()
  }
})

test('SSEServerTransport: close() ends the stream; a Host the check refuses gets the engine\'s answer', async () => {
  const { app, transports, url } = await sseApp()
  try {
    const r = await fetch(`${url}/sse`, { headers: { accept: 'text/event-stream' } })
    assert.equal(r.status, 200)
    assert.equal(r.headers.get('content-type'), 'text/event-stream')
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader()
    const [[id, transport]] = [...transports]
    let text = ''
    while (!text.includes('\n\n')) text += (await reader.read()).value
    assert.equal(text, `event: endpoint\ndata: /messages?sessionId=${id}\n\n`)
    await transport.close()
    assert.equal(transports.size, 0)
    for (;;) {
      const { done } = await reader.read()
      if (done) break
    }
  } finally {
    app.close()
  }
  const guarded = await sseApp({ enableDnsRebindingProtection: true, allowedHosts: ['example.com'] })
  try {
    const refused = new Promise((resolve) => guarded.app.once('refused', resolve))
    const r = await fetch(`${guarded.url}/sse`, { headers: { accept: 'text/event-stream' } })
    assert.equal(r.status, 421)
    assert.match((await refused).message, /^the engine refused the event stream with HTTP 421: /)
    assert.equal(guarded.transports.size, 0, 'onclose ran')
  } finally {
    guarded.app.close()
  }
})

test('SSEServerTransport: arguments are checked', () => {
  const res = new http.ServerResponse(new http.IncomingMessage(null))
  assert.throws(() => new sdk.SSEServerTransport(undefined, res), /^TypeError: SSEServerTransport: endpoint must be a string/)
  assert.throws(() => new sdk.SSEServerTransport('/messages', {}), /^TypeError: SSEServerTransport: res must be a node:http ServerResponse, got object$/)
  assert.throws(() => new sdk.SSEServerTransport('/messages', res, { sessionIdGenerator: () => 'x' }), /^TypeError: SSEServerTransport: unknown option sessionIdGenerator$/)
  const t = new sdk.SSEServerTransport('/messages', res)
  assert.throws(() => { t.sessionId = 'x' }, TypeError)
  return assert.rejects(t.start(), /^Error: start before connect/)
})
