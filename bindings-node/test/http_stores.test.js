'use strict'
// Session and event stores kept in JS (`serveHttp({sessionStore, eventStore})`, lib/http_stores.js
// over bindings-node/src/http_stores.rs): a store that records the engine's calls, a stream that
// ended resumed with Last-Event-ID from the store, two servers sharing one store serving one
// session, a store that throws (the request gets a clear error, the session goes on), and the
// official SDK's EventStore given to libmcp/sdk's StreamableHTTPServerTransport.
const test = require('node:test')
const assert = require('node:assert/strict')
const http = require('node:http')
const { Server, setEngineLog } = require('..')
const sdk = require('../lib/sdk')
const { LEGACY, sseReader, post } = require('./helpers')

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function until (what, check) {
  for (let i = 0; i < 250; i++) {
    if (check()) return
    await sleep(20)
  }
  assert.fail(`timed out waiting for ${what}`)
}

/** Stores over `shared` (Maps a test may give two servers) that record every call in `calls`;
 * setting `fail.load`, `fail.replay` or `fail.append` to a message makes that method throw it. */
function recordingStores (shared = { sessions: new Map(), events: new Map() }) {
  const calls = []
  const fail = {}
  const key = (session, stream) => `${session} ${stream}`
  const sessionStore = {
    async load (id) {
      calls.push(['load', id])
      if (fail.load) throw new Error(fail.load)
      return shared.sessions.get(id) ?? null
    },
    async save (record) {
      calls.push(['save', record.id])
      shared.sessions.set(record.id, structuredClone(record))
    },
    async remove (id) {
      calls.push(['remove', id])
      return shared.sessions.delete(id)
    },
  }
  const eventStore = {
    async append (session, event) {
      calls.push(['append', session, event.stream, event.seq, event.kind])
      if (fail.append) throw new Error(fail.append)
      const list = shared.events.get(key(session, event.stream)) ?? []
      list.push(event)
      shared.events.set(key(session, event.stream), list)
    },
    async replay (session, stream, after) {
      calls.push(['replay', session, stream, after])
      if (fail.replay) throw new Error(fail.replay)
      const list = shared.events.get(key(session, stream)) ?? []
      if (after > 0 && !list.some((e) => e.seq === after)) return 'unknown'
      return list.filter((e) => e.seq > after)
    },
    removeSession (session) {
      calls.push(['removeSession', session])
      for (const k of shared.events.keys()) if (k.startsWith(`${session} `)) shared.events.delete(k)
    },
  }
  return { sessionStore, eventStore, calls, fail, shared }
}

/** A server with `steps`, a tool that sends two log messages before its answer (so the answer
 * comes on an event stream). */
function makeServer () {
  const server = new Server({ name: 'stores', version: '1' })
  server.tool('steps', {}, async (_args, ctx) => {
    ctx.log('info', 'step 1')
    await sleep(5)
    ctx.log('info', 'step 2')
    await sleep(5)
    return 'done'
  })
  return server
}

async function initialize (url) {
  const init = await post(url, null, {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  })
  assert.equal(init.status, 200)
  const session = init.headers.get('mcp-session-id')
  assert.ok(session, 'a session id')
  await init.text()
  assert.equal((await post(url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202)
  return session
}

/** Every SSE event of a response, to its end. */
async function allEvents (response) {
  assert.match(response.headers.get('content-type'), /^text\/event-stream/)
  const next = sseReader(response)
  const events = []
  for (let e = await next(); e !== null; e = await next()) events.push(e)
  return events
}

/** Calls `steps` on `session`; the events of its stream, the priming one left out. */
async function callSteps (url, session, id) {
  const events = await allEvents(await post(url, session, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'steps', arguments: {} } }))
  const messages = events.filter((e) => e.data !== '')
  assert.deepEqual(messages.map((e) => JSON.parse(e.data).params?.data ?? JSON.parse(e.data).result.content[0].text), ['step 1', 'step 2', 'done'])
  return messages
}

function resume (url, session, lastEventId) {
  return fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, 'last-event-id': lastEventId } })
}

/** The engine's numbering of an event id (`<tag>.<stream>-<seq>`). */
function numbering (id) {
  const m = /\.(\d+)-(\d+)$/.exec(id)
  return { stream: Number(m[1]), seq: Number(m[2]) }
}

test('a JS session and event store records the engine\'s calls, and a stream that ended resumes from it', async () => {
  const stores = recordingStores()
  const server = makeServer()
  const h = await server.serveHttp({ sessionStore: stores.sessionStore, eventStore: stores.eventStore })
  try {
    const session = await initialize(h.url)
    assert.ok(stores.calls.some(([op, id]) => op === 'save' && id === session))
    const record = stores.shared.sessions.get(session)
    assert.equal(record.protocolVersion, LEGACY)
    assert.equal(record.initialized, true)

    const sent = await callSteps(h.url, session, 2)
    const { stream, seq } = numbering(sent[0].id)
    await until('the three appends', () => stores.calls.filter(([op]) => op === 'append').length >= 3)
    const appends = stores.calls.filter(([op, s, n]) => op === 'append' && s === session && n === stream)
    assert.deepEqual(appends.map((c) => c.slice(3)), [[seq, 'notification'], [seq + 1, 'notification'], [seq + 2, 'result']])
    assert.deepEqual(stores.shared.events.get(`${session} ${stream}`).map((e) => e.data), sent.map((e) => e.data))

    // The stream was answered, and the next POST stream makes the engine forget it (it keeps the
    // streams of requests still running): it asks the store for what followed the first event.
    await callSteps(h.url, session, 3)
    const resumed = await resume(h.url, session, sent[0].id)
    assert.equal(resumed.status, 200)
    const replayed = (await allEvents(resumed)).filter((e) => e.data !== '')
    assert.deepEqual(replayed, sent.slice(1))
    assert.deepEqual(stores.calls.find(([op]) => op === 'replay'), ['replay', session, stream, seq])

    // An event the store never recorded.
    const unknown = await resume(h.url, session, sent[0].id.replace(/-\d+$/, '-99'))
    assert.equal(unknown.status, 400)
    assert.match(await unknown.text(), /names no event sent on this session/)

    const deleted = await fetch(h.url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY } })
    assert.equal(deleted.status, 200)
    await until('the removals', () => stores.calls.some(([op]) => op === 'removeSession'))
    assert.ok(stores.calls.some(([op, id]) => op === 'remove' && id === session))
    assert.equal(stores.shared.sessions.has(session), false)
    assert.equal(stores.shared.events.size, 0)
  } finally {
    await h.close()
    await server.close()
  }
})

/** Two servers, each with its recording stores, over one shared store. */
function twoServersOnOneStore () {
  const a = recordingStores()
  return { a, b: recordingStores(a.shared), serverA: makeServer(), serverB: makeServer() }
}

test('two servers on one JS store serve one session, and one resumes the other\'s stream', async () => {
  const { a, b, serverA, serverB } = twoServersOnOneStore()
  const mountB = serverB.mount({ sessionStore: b.sessionStore, eventStore: b.eventStore })
  const httpA = await serverA.serveHttp({ sessionStore: a.sessionStore, eventStore: a.eventStore })
  const httpB = http.createServer((req, res) => mountB.handleRequest(req, res))
  await new Promise((resolve) => httpB.listen(0, '127.0.0.1', resolve))
  const urlB = `http://127.0.0.1:${httpB.address().port}/mcp`
  try {
    const session = await initialize(httpA.url)
    const sent = await callSteps(httpA.url, session, 2)
    await until('the appends', () => a.calls.filter(([op]) => op === 'append').length >= 3)
    // B never saw the session: it loads the record A saved.
    await callSteps(urlB, session, 3)
    assert.ok(b.calls.some(([op, id]) => op === 'load' && id === session))
    const resumed = await resume(urlB, session, sent[1].id)
    assert.equal(resumed.status, 200)
    assert.deepEqual((await allEvents(resumed)).filter((e) => e.data !== ''), sent.slice(2))
  } finally {
    httpB.closeAllConnections()
    await new Promise((resolve) => httpB.close(resolve))
    await mountB.close()
    await httpA.close()
    await serverA.close()
    await serverB.close()
  }
})

test('a JS store that throws fails that request with a clear error, and the session goes on', async () => {
  const { a, b, serverA, serverB } = twoServersOnOneStore()
  const httpA = await serverA.serveHttp({ sessionStore: a.sessionStore, eventStore: a.eventStore })
  const httpB = await serverB.serveHttp({ sessionStore: b.sessionStore, eventStore: b.eventStore })
  const log = []
  setEngineLog((entry) => log.push(entry), { level: 'warn' })
  try {
    const session = await initialize(httpA.url)
    b.fail.load = 'the disk is on fire'
    const refused = await post(httpB.url, session, { jsonrpc: '2.0', id: 2, method: 'tools/list' })
    assert.equal(refused.status, 503)
    assert.match(await refused.text(), /the JS sessionStore: the disk is on fire/)
    delete b.fail.load
    const listed = await post(httpB.url, session, { jsonrpc: '2.0', id: 3, method: 'tools/list' })
    assert.equal(listed.status, 200)
    assert.match(await listed.text(), /"steps"/)

    const sent = await callSteps(httpA.url, session, 4)
    await callSteps(httpA.url, session, 5)
    await until('the appends', () => a.calls.filter(([op]) => op === 'append').length >= 6)
    a.fail.replay = 'the replay broke'
    const unavailable = await resume(httpA.url, session, sent[0].id)
    assert.equal(unavailable.status, 503)
    assert.match(await unavailable.text(), /event store is unavailable/)
    await until('the engine log entry', () => log.some((e) => e.message.includes('the replay broke')))
    delete a.fail.replay
    const resumed = await resume(httpA.url, session, sent[0].id)
    assert.equal(resumed.status, 200)
    assert.deepEqual((await allEvents(resumed)).filter((e) => e.data !== ''), sent.slice(1))

    // An append that fails is reported, and the call is answered all the same.
    a.fail.append = 'the append broke'
    await callSteps(httpA.url, session, 6)
    await until('the engine log entry', () => log.some((e) => e.message.includes('the append broke') && e.fields.op === 'event.append'))
  } finally {
    setEngineLog(null)
    await httpA.close()
    await httpB.close()
    await serverA.close()
    await serverB.close()
  }
})

test('JS stores are checked when given', async () => {
  const server = makeServer()
  try {
    await assert.rejects(server.serveHttp({ sessionStore: { load () {}, save () {} } }), { name: 'TypeError', message: 'sessionStore.remove must be a function, got undefined' })
    assert.throws(() => server.mount({ eventStore: 'memory' }), { name: 'TypeError', message: 'eventStore must be an object, got string' })
    assert.throws(() => new sdk.StreamableHTTPServerTransport({ sessionIdGenerator: () => 'x', eventStore: { storeEvent () {} } }),
      { name: 'TypeError', message: 'eventStore.replayEventsAfter must be a function, got undefined' })
  } finally {
    await server.close()
  }
})

/** An event store with the SDK's EventStore interface that keeps events in the order stored.
 * (The SDK's example InMemoryEventStore orders them by ids made of Date.now() and a random part,
 * so two events of one millisecond are replayed in either order, or one of them not at all: on
 * the SDK as on libmcp, which then answers 410 as for events the store lost.) */
class OrderedEventStore {
  #events = []
  async storeEvent (streamId, message) {
    const eventId = `${streamId}_${this.#events.length}`
    this.#events.push({ eventId, streamId, message })
    return eventId
  }

  async replayEventsAfter (lastEventId, { send }) {
    const at = this.#events.findIndex((e) => e.eventId === lastEventId)
    if (at < 0) return ''
    const { streamId } = this.#events[at]
    for (const e of this.#events.slice(at + 1)) if (e.streamId === streamId) await send(e.eventId, e.message)
    return streamId
  }
}

/** An SDK-style server whose `steps` tool sends two log messages before its answer, on
 * `StreamableHTTPServerTransport` with `eventStore`, one server and transport per
 * session as the SDK's examples do; `modules` are the SDK's or libmcp/sdk's. */
async function sdkStyleServer (modules, eventStore) {
  const { McpServer, StreamableHTTPServerTransport } = modules
  const transports = new Map()
  const app = http.createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const parsed = body === '' ? undefined : JSON.parse(body)
    const id = req.headers['mcp-session-id']
    let transport = id === undefined ? undefined : transports.get(id)
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => require('node:crypto').randomUUID(),
        eventStore,
        onsessioninitialized: (sid) => transports.set(sid, transport),
      })
      const server = new McpServer({ name: 'stores', version: '1' }, { capabilities: { logging: {} } })
      server.registerTool('steps', {}, async (extra) => {
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'step 1' } })
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'step 2' } })
        return { content: [{ type: 'text', text: 'done' }] }
      })
      await server.connect(transport)
    }
    await transport.handleRequest(req, res, parsed)
  })
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${app.address().port}/mcp`,
    close: async () => {
      for (const t of transports.values()) await t.close()
      app.closeAllConnections()
      await new Promise((resolve) => app.close(resolve))
    },
  }
}

test('libmcp/sdk: the SDK\'s EventStore records a stream, which resumes from it as on the SDK', async () => {
  const replays = {}
  for (const [name, modules] of [
    ['sdk', {
      McpServer: require('@modelcontextprotocol/sdk/server/mcp.js').McpServer,
      StreamableHTTPServerTransport: require('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport,
    }],
    ['libmcp', sdk],
  ]) {
    const store = new OrderedEventStore()
    const stored = []
    const storeEvent = store.storeEvent.bind(store)
    store.storeEvent = async (streamId, message) => {
      stored.push(message)
      return storeEvent(streamId, message)
    }
    let replayed = 0
    const replayEventsAfter = store.replayEventsAfter.bind(store)
    store.replayEventsAfter = (lastEventId, options) => {
      replayed += 1
      return replayEventsAfter(lastEventId, options)
    }
    const app = await sdkStyleServer(modules, store)
    try {
      const session = await initialize(app.url)
      const before = stored.length
      const sent = await callSteps(app.url, session, 2)
      await until(`${name}: the stored events`, () => stored.length >= before + 4)
      // A priming event ({}) and the three messages, as the SDK stores them.
      assert.deepEqual(stored.slice(before, before + 4).map((m) => m.method ?? (m.result ? 'result' : 'priming')), ['priming', 'notifications/message', 'notifications/message', 'result'], name)
      // A second call's stream makes libmcp forget the first (see the first test), so the replay
      // comes from the store.
      await callSteps(app.url, session, 3)
      const resumed = await resume(app.url, session, sent[0].id)
      assert.equal(resumed.status, 200, name)
      // The SDK keeps a resumed stream open after its replay; libmcp ends one whose request was answered.
      const next = sseReader(resumed)
      const messages = []
      while (messages.length < 2) {
        const e = await next()
        assert.ok(e, `${name}: the resumed stream ended after ${messages.length} messages`)
        if (e.data !== '') messages.push(JSON.parse(e.data))
      }
      assert.equal(replayed, 1, `${name}: the replay came from the store`)
      replays[name] = messages
    } finally {
      await app.close()
    }
  }
  assert.deepEqual(replays.libmcp, replays.sdk)
  assert.deepEqual(replays.libmcp.map((m) => m.params?.data ?? m.result.content[0].text), ['step 2', 'done'])
})
