'use strict'
// `new Server(info, {redis: URL})`: the engine's shared Redis state (README "Running many
// instances"). Two servers on one Redis continue each other's legacy session, and a list change on
// one reaches the listeners of the other; those tests need REDIS_URL (scripts/test.d/60-redis.sh
// starts a Redis server and sets it). A bad URL, a Redis down at start (served all the same) and a
// clash with the task options need no Redis.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Client, InvalidArgumentError, Server } = require('..')
const { LEGACY, MODERN } = require('./helpers')

const REDIS_URL = process.env.REDIS_URL
// The timeout turns a notification that never arrives into a failure instead of a hang.
const needsRedis = { skip: REDIS_URL === undefined && 'needs a Redis server: set REDIS_URL (scripts/test.d/60-redis.sh does)', timeout: 30000 }

function server (redis) {
  const s = new Server({ name: 'redis-test', version: '1.0.0' }, { redis })
  s.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => `echoed ${text}`)
  return s
}

/** POSTs `body` to `url`: the status, the session id, and the JSON-RPC message answering it (from
 * a JSON body or the one event of an SSE body), or the raw text when there is neither. */
async function post (url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  const type = res.headers.get('content-type') || ''
  let message = text
  if (type.startsWith('application/json')) message = JSON.parse(text)
  if (type.startsWith('text/event-stream')) {
    const data = text.split('\n').filter((l) => l.startsWith('data:') && l.length > 'data:'.length)
    assert.equal(data.length, 1, text)
    message = JSON.parse(data[0].slice('data:'.length))
  }
  return { status: res.status, session: res.headers.get('mcp-session-id'), message }
}

const initialize = {
  jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'fetch', version: '1' } },
}
const call = (id, text) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } })
const echoed = (id, text) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `echoed ${text}` }] } })

test('a URL that is not a Redis URL is an InvalidArgumentError', () => {
  assert.throws(() => new Server({ name: 'x', version: '1' }, { redis: 'http://127.0.0.1:6379/0' }), (e) =>
    e instanceof InvalidArgumentError && e.kind === 'invalidArgument' &&
    e.message.startsWith('redis must be a redis:// URL, got "http://127.0.0.1:6379/0": '))
  assert.throws(() => new Server({ name: 'x', version: '1' }, { redis: 6379 }), { name: 'TypeError', message: 'redis must be a URL string, got number' })
})

test('redis keeps the tasks itself', () => {
  const store = { create () {}, put () {}, get () { return null }, list () { return [] } }
  for (const tasks of [{ store }, { maxTasks: 10 }]) {
    assert.throws(() => new Server({ name: 'x', version: '1' }, { redis: 'redis://127.0.0.1:6379/0', tasks }), (e) =>
      e instanceof InvalidArgumentError &&
      e.message === 'redis keeps the tasks itself: give neither tasks.store nor tasks.maxTasks with it')
  }
})

test('a Redis down at start still serves: the stateless wire answered, a legacy session 503', async () => {
  // Port 1 on loopback: nothing listens there, so every connection is refused.
  const s = server('redis://127.0.0.1:1/0')
  try {
    const { url } = await s.serveHttp()
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'fetch', version: '1' },
    }
    const modern = call(2, 'stateless')
    modern.params._meta = meta
    const answer = await post(url, modern, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' })
    assert.equal(answer.status, 200)
    assert.deepEqual(answer.message.result.content, echoed(2, 'stateless').result.content)
    // A legacy session needs the session store: 503 with the JSON-RPC error, the server goes on.
    const legacy = await post(url, initialize)
    assert.equal(legacy.status, 503)
    assert.equal(legacy.message.error.code, -32603)
    assert.match(legacy.message.error.message, /unavailable/)
  } finally {
    await s.close()
  }
})

test('two servers on one Redis continue a legacy session', needsRedis, async () => {
  const a = server(REDIS_URL)
  const b = server(REDIS_URL)
  try {
    const [httpA, httpB] = [await a.serveHttp(), await b.serveHttp()]
    const init = await post(httpA.url, initialize)
    assert.equal(init.status, 200)
    assert.equal(init.message.result.protocolVersion, LEGACY)
    assert.match(init.session, /^[\x21-\x7e]+$/)
    const h = { 'mcp-session-id': init.session, 'mcp-protocol-version': LEGACY }
    assert.deepEqual(await post(httpB.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, h),
      { status: 202, session: null, message: '' })
    assert.deepEqual((await post(httpB.url, call(2, 'on b'), h)).message, echoed(2, 'on b'))
    assert.deepEqual((await post(httpA.url, call(3, 'on a'), h)).message, echoed(3, 'on a'))
    // DELETE on one server ends the session on the other too.
    assert.equal((await fetch(httpB.url, { method: 'DELETE', headers: h })).status, 200)
    assert.equal((await post(httpA.url, call(4, 'after delete'), h)).status, 404)
  } finally {
    await a.close()
    await b.close()
  }
})

test('a tool added on one server reaches a 2026-07-28 listener on another', needsRedis, async () => {
  const a = server(REDIS_URL)
  const b = server(REDIS_URL)
  const client = await Client.connectHttp((await b.serveHttp()).url, { protocolVersion: MODERN })
  try {
    // Resolves once the server has acknowledged the listen stream.
    const sub = await client.subscribe({ toolsListChanged: true })
    a.tool('added-on-a', () => 'a')
    const { method, params } = await sub.next()
    assert.equal(method, 'notifications/tools/list_changed')
    // It names the subscription (the listen request's id).
    const id = params._meta['io.modelcontextprotocol/subscriptionId']
    assert.equal(typeof id, 'number')
    assert.deepEqual(params, { _meta: { 'io.modelcontextprotocol/subscriptionId': id } })
    await sub.close()
  } finally {
    await client.close()
    await a.close()
    await b.close()
  }
})

/** The JSON-RPC messages of an SSE response body, one at a time (events without data skipped). */
async function * sseMessages (body) {
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true })
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const data = buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('')
      buffer = buffer.slice(end + 2)
      if (data !== '') yield JSON.parse(data)
    }
  }
}

test('a tool added on one server reaches a legacy session\'s GET stream on another', needsRedis, async () => {
  const a = server(REDIS_URL)
  const b = server(REDIS_URL)
  try {
    const [httpA, httpB] = [await a.serveHttp(), await b.serveHttp()]
    const { session } = await post(httpA.url, initialize)
    const h = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY }
    assert.equal((await post(httpB.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status, 202)
    // The session's standalone stream, on B: its response headers come once the stream is open.
    const get = await fetch(httpB.url, { headers: { ...h, accept: 'text/event-stream' } })
    assert.equal(get.status, 200)
    assert.equal(get.headers.get('content-type'), 'text/event-stream')
    a.tool('added-on-a', () => 'a')
    const messages = sseMessages(get.body)
    assert.deepEqual((await messages.next()).value, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    await messages.return()
    assert.equal((await fetch(httpA.url, { method: 'DELETE', headers: h })).status, 200)
  } finally {
    await a.close()
    await b.close()
  }
})
