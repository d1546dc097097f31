'use strict'
// The official TypeScript SDK's experimental tasks API on libmcp/sdk: `registerToolTask` with a
// task store (libmcp/sdk's InMemoryTaskStore, and the SDK's own as a store of the application's),
// driven by the SDK's client (`callToolStream`, 2025-11-25) and by this package's client
// (`callToolTask`, the tasks extension of 2026-07-28), cancellation, the checks, the in-memory
// store itself, and `elicitInputStream`. test/sdk_examples.test.js runs the SDK's
// simpleStreamableHttp example on it.
const test = require('node:test')
const assert = require('node:assert/strict')
const { z } = require('zod')
const sdk = require('libmcp/sdk')
const { Client: NativeClient } = require('..')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { ElicitRequestSchema, CreateMessageRequestSchema, CreateTaskResultSchema, CallToolResultSchema, EmptyResultSchema, ListToolsResultSchema } = require('@modelcontextprotocol/sdk/types.js')
const SdkStores = require('@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js')
const { MODERN } = require('./helpers')
const { taskStream } = require('./task_stream')
const http = require('node:http')
const { randomUUID } = require('node:crypto')
const SDK_SERVER = {
  McpServer: require('@modelcontextprotocol/sdk/server/mcp.js').McpServer,
  InMemoryTaskMessageQueue: SdkStores.InMemoryTaskMessageQueue,
}
const { StreamableHTTPServerTransport: SdkHttpTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js')

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms)
  signal?.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason) }, { once: true })
})

/** An McpServer with task tools over `store`: `wait` (its work ends after `ms`, through the
 * request's store), `ask` (its work elicits a name, through `server.server.experimental.tasks`,
 * and stores the answer through the global store) and `maybe` (taskSupport optional). `m` has the
 * McpServer and InMemoryTaskMessageQueue classes (libmcp/sdk's, or the SDK's). */
function taskServer (store, m = sdk) {
  const mcp = new m.McpServer({ name: 'tasks', version: '1' }, {
    capabilities: { tasks: { requests: { tools: { call: {} } } } },
    taskStore: store,
    taskMessageQueue: new m.InMemoryTaskMessageQueue(),
    tasks: { pollIntervalMs: 20 },
  })
  // The work of a task, out of band. A cancelled task's work stores nothing: libmcp/sdk aborts
  // its signal and marks the record cancelled; the SDK marks the record (or the test dropped it).
  const later = (taskStore, id, f, signal) => {
    (async () => {
      try {
        const result = await f()
        const now = await taskStore.getTask(id).catch(() => null)
        if (now && now.status === 'working') await taskStore.storeTaskResult(id, 'completed', result)
      } catch (e) {
        if (signal?.aborted) return
        await taskStore.storeTaskResult(id, 'failed', { content: [{ type: 'text', text: `Error: ${e.message}` }], isError: true })
      }
    })()
  }
  mcp.experimental.tasks.registerToolTask('wait', { inputSchema: { ms: z.number().default(10) } }, {
    async createTask ({ ms }, { taskStore, signal }) {
      const task = await taskStore.createTask({ pollInterval: 20 })
      later(taskStore, task.taskId, async () => {
        await sleep(ms, signal)
        return { content: [{ type: 'text', text: `waited ${ms}` }] }
      }, signal)
      return { task }
    },
    getTask: (_args, { taskId, taskStore }) => taskStore.getTask(taskId),
    getTaskResult: (_args, { taskId, taskStore }) => taskStore.getTaskResult(taskId),
  })
  mcp.experimental.tasks.registerToolTask('ask', { description: 'asks a name' }, {
    async createTask ({ taskStore }) {
      const task = await taskStore.createTask({ pollInterval: 20 })
      later(store, task.taskId, async () => {
        for await (const m of mcp.server.experimental.tasks.elicitInputStream({ message: 'name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })) {
          if (m.type === 'error') throw m.error
          return { content: [{ type: 'text', text: `${m.result.action} ${m.result.content.name}` }] }
        }
      })
      return { task }
    },
  })
  mcp.experimental.tasks.registerToolTask('maybe', { execution: { taskSupport: 'optional' } }, {
    async createTask ({ taskStore }) {
      const task = await taskStore.createTask({ pollInterval: 20 })
      later(taskStore, task.taskId, async () => ({ content: [{ type: 'text', text: 'maybe done' }] }))
      return { task }
    },
  })
  return mcp
}

/** The SDK's client on an InMemoryTransport pair to `mcp`, answering elicitations with Ada. */
async function sdkClient (mcp) {
  const [ours, theirs] = sdk.InMemoryTransport.createLinkedPair()
  await mcp.connect(theirs)
  const client = new Client({ name: 'tasks-test', version: '1' }, { capabilities: { elicitation: { form: {} }, sampling: {} } })
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }))
  client.setRequestHandler(CreateMessageRequestSchema, (req) => ({ role: 'assistant', model: 'echo', content: req.params.messages[0].content }))
  await client.connect(ours)
  return client
}

/** The statuses of a `callToolStream` call (each once) and the text (or error) it ended with. */
async function stream (client, name, args) {
  const { statuses, result, error } = await taskStream(client, name, args)
  return { statuses, end: result ? result.content[0].text : `error: ${error}` }
}

for (const [label, makeStore] of [['libmcp/sdk\'s InMemoryTaskStore', () => new sdk.InMemoryTaskStore()], ['the SDK\'s own InMemoryTaskStore (polled)', () => new SdkStores.InMemoryTaskStore()]]) {
  test(`registerToolTask with ${label}, called as tasks by the SDK client`, async () => {
    const store = makeStore()
    const mcp = taskServer(store)
    const client = await sdkClient(mcp)
    try {
      const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.execution]))
      assert.deepEqual(tools, { wait: { taskSupport: 'required' }, ask: { taskSupport: 'required' }, maybe: { taskSupport: 'optional' } })
      const waited = await stream(client, 'wait', { ms: 30 })
      assert.equal(waited.end, 'waited 30')
      assert.equal(waited.statuses[0], 'working')
      assert.equal(waited.statuses.at(-1), 'completed')
      // The engine asks for the name as the task's input round: the client answers it at once (one
      // connection here) and sees `input_required` if it polled meanwhile.
      const asked = await stream(client, 'ask')
      assert.equal(asked.end, 'accept Ada')
      assert.ok(['working,completed', 'working,input_required'].includes(asked.statuses.join()), asked.statuses.join())
      // An optional task tool called the plain way answers once its work ended.
      assert.equal((await client.callTool({ name: 'maybe', arguments: {} })).content[0].text, 'maybe done')
      assert.equal((await stream(client, 'maybe')).end, 'maybe done')
      // One record per call in the store, all ended, though `ask` ran twice (once per input round).
      const { tasks } = await store.listTasks()
      assert.equal(tasks.length, 4)
      assert.ok(tasks.every((t) => t.status === 'completed'), JSON.stringify(tasks))
    } finally {
      await client.close()
      await mcp.close()
    }
  })
}

test('registerToolTask in the 2026-07-28 era: this package\'s client runs the tools as tasks', async () => {
  const mcp = taskServer(new sdk.InMemoryTaskStore())
  const http = await mcp.native.serveHttp()
  const c = await NativeClient.connectHttp(http.url, { protocolVersion: MODERN, onElicitation: () => ({ action: 'accept', content: { name: 'Grace' } }) })
  try {
    assert.equal(c.protocolVersion, MODERN)
    assert.equal((await c.callToolTask('wait', { ms: 5 })).content[0].text, 'waited 5')
    assert.equal((await c.callToolTask('ask')).content[0].text, 'accept Grace')
    assert.equal((await c.callTool('maybe')).content[0].text, 'maybe done')
  } finally {
    await c.close()
    await mcp.close()
  }
})

test('a task cancelled by the client is marked cancelled in the task store', async () => {
  const store = new sdk.InMemoryTaskStore()
  const mcp = taskServer(store)
  const client = await sdkClient(mcp)
  try {
    const { task } = await client.request({ method: 'tools/call', params: { name: 'wait', arguments: { ms: 60_000 }, task: {} } }, CreateTaskResultSchema)
    let records
    for (let i = 0; i < 100 && (records = (await store.listTasks()).tasks).length === 0; i++) await sleep(10)
    assert.equal(records.length, 1)
    await client.experimental.tasks.cancelTask(task.taskId)
    for (let i = 0; i < 100 && (await store.getTask(records[0].taskId)).status !== 'cancelled'; i++) await sleep(10)
    const record = await store.getTask(records[0].taskId)
    assert.equal(record.status, 'cancelled')
    assert.equal(record.statusMessage, 'Client cancelled task execution.')
    assert.equal((await client.experimental.tasks.getTask(task.taskId)).status, 'cancelled')
  } finally {
    await client.close()
    await mcp.close()
  }
})

test('an optional task tool called the plain way that asks the client: a record per round, the earlier ones cancelled', async () => {
  const store = new sdk.InMemoryTaskStore()
  const mcp = new sdk.McpServer({ name: 'x', version: '1' }, { taskStore: store })
  mcp.experimental.tasks.registerToolTask('ask', { execution: { taskSupport: 'optional' } }, {
    async createTask ({ taskStore, sendRequest }) {
      const task = await taskStore.createTask({ pollInterval: 20 })
      ;(async () => {
        const answer = await sendRequest({ method: 'elicitation/create', params: { mode: 'form', message: 'name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } })
        await taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: answer.content.name }] })
      })()
      return { task }
    },
  })
  const client = await sdkClient(mcp)
  try {
    assert.equal((await client.callTool({ name: 'ask', arguments: {} })).content[0].text, 'Ada')
    const records = store.getAllTasks().map((t) => [t.status, t.statusMessage])
    assert.deepEqual(records, [['cancelled', 'The call asked the client for input: its next round made a new record.'], ['completed', undefined]])
  } finally {
    await client.close()
    await mcp.close()
  }
})

test('registerToolTask and the task options refuse what cannot work, naming it', async () => {
  const handler = { createTask: async () => ({}) }
  assert.throws(() => new sdk.McpServer({ name: 'x', version: '1' }).experimental.tasks.registerToolTask('t', {}, handler),
    /tool t runs as a task, which needs the McpServer option taskStore/)
  const mcp = new sdk.McpServer({ name: 'x', version: '1' }, { taskStore: new sdk.InMemoryTaskStore() })
  assert.throws(() => mcp.experimental.tasks.registerToolTask('t', { execution: { taskSupport: 'forbidden' } }, handler), /cannot have taskSupport 'forbidden'/)
  assert.throws(() => mcp.experimental.tasks.registerToolTask('t', {}, async () => ({})), /handler must be an object with a createTask function, got function/)
  assert.throws(() => mcp.experimental.tasks.registerToolTask('t', {}, { createTask () {}, getTask: 1 }), /handler\.getTask must be a function, got number/)
  assert.throws(() => new sdk.McpServer({ name: 'x', version: '1' }, { taskStore: { createTask () {}, getTask () {} } }),
    /taskStore lacks the TaskStore methods storeTaskResult, getTaskResult, updateTaskStatus, listTasks/)
  assert.throws(() => new sdk.McpServer({ name: 'x', version: '1' }, { taskStore: 'memory' }), /taskStore must be an object with the SDK's TaskStore methods, got string/)
  assert.throws(() => new sdk.McpServer({ name: 'x', version: '1' }, { taskMessageQueue: new sdk.InMemoryTaskMessageQueue() }), /taskMessageQueue needs the taskStore option too/)
  assert.throws(() => new sdk.McpServer({ name: 'x', version: '1' }, { taskStore: new sdk.InMemoryTaskStore(), taskMessageQueue: {} }), /taskMessageQueue lacks the TaskMessageQueue methods enqueue, dequeue, dequeueAll/)

  // Work that cancels its own record answers a tool error that says so.
  mcp.experimental.tasks.registerToolTask('gives-up', { execution: { taskSupport: 'optional' } }, {
    async createTask ({ taskStore }) {
      const task = await taskStore.createTask({ pollInterval: 20 })
      setTimeout(() => taskStore.updateTaskStatus(task.taskId, 'cancelled', 'no disk space'), 5)
      return { task }
    },
  })
  // A createTask that gives no task answers a tool error that says so.
  mcp.experimental.tasks.registerToolTask('bad', { execution: { taskSupport: 'optional' } }, handler)
  const client = await sdkClient(mcp)
  try {
    const r = await client.callTool({ name: 'bad', arguments: {} })
    assert.equal(r.isError, true)
    assert.equal(r.content[0].text, 'createTask of tool bad must resolve to {task} (a task of the task store), got object')
    const gaveUp = await client.callTool({ name: 'gives-up', arguments: {} })
    assert.equal(gaveUp.isError, true)
    assert.match(gaveUp.content[0].text, /^task record [0-9a-f-]{36} of tool gives-up was cancelled: no disk space$/)
  } finally {
    await client.close()
    await mcp.close()
  }
})

test('InMemoryTaskStore keeps the SDK store\'s rules: sessions, one result, pages, ttl', async () => {
  const store = new sdk.InMemoryTaskStore()
  const a = await store.createTask({ pollInterval: 5 }, 1, { method: 'tools/call' }, 's1')
  assert.equal(a.status, 'working')
  assert.equal(a.pollInterval, 5)
  assert.equal(a.ttl, null)
  assert.equal(await store.getTask(a.taskId, 's2'), null, 'another session does not find it')
  assert.equal((await store.getTask(a.taskId)).taskId, a.taskId, 'a call naming no session does')
  await assert.rejects(store.updateTaskStatus(a.taskId, 'sleeping'), /task status must be one of working, input_required, completed, failed, cancelled, got "sleeping"/)
  await assert.rejects(store.getTaskResult(a.taskId), /has no result stored/)
  await store.updateTaskStatus(a.taskId, 'input_required', 'waiting for you', 's1')
  assert.equal((await store.getTask(a.taskId)).statusMessage, 'waiting for you')
  await store.storeTaskResult(a.taskId, 'completed', { content: [] }, 's1')
  assert.deepEqual(await store.getTaskResult(a.taskId), { content: [] })
  await assert.rejects(store.storeTaskResult(a.taskId, 'failed', {}), /is completed already: its result is stored once/)
  await assert.rejects(store.updateTaskStatus(a.taskId, 'working'), /is completed already and cannot become working/)
  await assert.rejects(store.storeTaskResult('nope', 'completed', {}), /Task with ID nope not found/)

  for (let i = 0; i < 11; i++) await store.createTask({}, i, { method: 'tools/call' })
  const first = await store.listTasks(undefined, 's2')
  assert.equal(first.tasks.length, 10, 's2 sees the 11 tasks of no session, not s1\'s')
  const second = await store.listTasks(first.nextCursor, 's2')
  assert.equal(second.tasks.length, 1)
  assert.equal(second.nextCursor, undefined)
  await assert.rejects(store.listTasks('nope'), /Invalid cursor: nope/)
  assert.equal(store.getAllTasks().length, 12)

  const short = await store.createTask({ ttl: 20 })
  assert.equal(short.ttl, 20)
  await sleep(60)
  assert.equal(await store.getTask(short.taskId), null, 'dropped after its ttl')
  store.cleanup()
  assert.deepEqual(store.getAllTasks(), [])
  assert.equal(sdk.isTerminal('failed'), true)
  assert.equal(sdk.isTerminal('input_required'), false)

  const queue = new sdk.InMemoryTaskMessageQueue()
  await queue.enqueue('t', { type: 'notification', message: 1 })
  await assert.rejects(queue.enqueue('t', { type: 'notification', message: 2 }, undefined, 1), /Task message queue of t is full \(1 of at most 1\)/)
  await queue.enqueue('t', { type: 'notification', message: 2 })
  assert.deepEqual(await queue.dequeue('t'), { type: 'notification', message: 1 })
  assert.deepEqual(await queue.dequeueAll('t'), [{ type: 'notification', message: 2 }])
  assert.equal(await queue.dequeue('t'), undefined)
})

test('elicitInputStream and createMessageStream outside tasks: one result message, or one error', async () => {
  const mcp = new sdk.McpServer({ name: 'x', version: '1' })
  const tasks = mcp.server.experimental.tasks
  mcp.registerTool('ask', {}, async () => {
    const seen = []
    for await (const m of tasks.elicitInputStream({ message: 'name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } })) seen.push(m)
    for await (const m of tasks.createMessageStream({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 })) seen.push(m)
    // An answer its schema refuses (elicitInput checks it) ends the stream with the error.
    for await (const m of tasks.elicitInputStream({ message: 'age?', requestedSchema: { type: 'object', properties: { age: { type: 'integer' } }, required: ['age'] } })) {
      seen.push({ type: m.type, code: m.error.code, message: m.error.message })
    }
    return { content: [{ type: 'text', text: JSON.stringify(seen) }] }
  })
  const client = await sdkClient(mcp)
  try {
    const r = await client.callTool({ name: 'ask', arguments: {} })
    const [elicited, sampled, refused] = JSON.parse(r.content[0].text)
    assert.deepEqual(elicited, { type: 'result', result: { action: 'accept', content: { name: 'Ada' } } })
    assert.deepEqual(sampled, { type: 'result', result: { role: 'assistant', model: 'echo', content: { type: 'text', text: 'hi' } } })
    assert.equal(refused.type, 'error')
    assert.equal(refused.code, -32602)
    assert.match(refused.message, /^MCP error -32602: Elicitation response content does not match requested schema: /)
  } finally {
    await client.close()
    await mcp.close()
  }
})

/** The task tools on the SDK's own McpServer and task store over node:http, a server and a
 * transport per session (as the SDK's examples serve), the store shared. */
async function sdkTaskServer () {
  const store = new SdkStores.InMemoryTaskStore()
  const sessions = new Map()
  const server = http.createServer(async (req, res) => {
    let transport = sessions.get(req.headers['mcp-session-id'])
    if (transport === undefined) {
      transport = new SdkHttpTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) })
      await taskServer(store, SDK_SERVER).connect(transport)
    }
    await transport.handleRequest(req, res)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: new URL(`http://127.0.0.1:${server.address().port}/mcp`),
    close: async () => {
      for (const t of sessions.values()) await t.close()
      store.cleanup()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** What a client of `ClientClass` (the SDK's or libmcp/sdk's, both the SDK's API) sees of the task
 * tools at `url`, using the SDK's experimental task calls. */
async function clientTranscript (ClientClass, TransportClass, url) {
  const client = new ClientClass({ name: 'tasks-client', version: '1' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }))
  await client.connect(new TransportClass(url))
  try {
    const out = {}
    out.tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.execution]))
    out.required = await client.callTool({ name: 'wait', arguments: {} }).then(() => 'answered', (e) => [e.code, e.message])
    out.maybe = (await client.callTool({ name: 'maybe', arguments: {} })).content[0].text
    const waited = await stream(client, 'wait', { ms: 30 })
    out.wait = [waited.statuses[0], waited.statuses.at(-1), waited.end]
    out.ask = (await stream(client, 'ask')).end
    // The task calls one by one: create, look, fetch the result, cancel another.
    const tasks = client.experimental.tasks
    let created
    for await (const m of tasks.callToolStream({ name: 'wait', arguments: { ms: 20 } })) {
      if (m.type === 'taskCreated') { created = m.task; break }
    }
    const task = await tasks.getTask(created.taskId)
    out.task = Object.keys(task).sort()
    out.result = (await tasks.getTaskResult(created.taskId, CallToolResultSchema)).content[0].text
    for await (const m of tasks.callToolStream({ name: 'wait', arguments: { ms: 500 } })) {
      if (m.type === 'taskCreated') { created = m.task; break }
    }
    out.cancelled = (await tasks.cancelTask(created.taskId)).status
    const seen = []
    for await (const m of tasks.requestStream({ method: 'tools/call', params: { name: 'wait', arguments: { ms: 5 } } }, CallToolResultSchema, { task: {} })) seen.push(m.type)
    for await (const m of tasks.requestStream({ method: 'tools/list' }, ListToolsResultSchema)) seen.push(m.type === 'result' ? m.result.tools.length : m.type)
    out.requestStream = seen.filter((t) => t !== 'taskStatus')
    assert.deepEqual(out.requestStream, ['taskCreated', 'result', 3])
    return out
  } finally {
    await client.close()
  }
}

test('libmcp/sdk\'s Client runs the SDK\'s experimental task calls as the SDK\'s Client does', async () => {
  const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
  const theirs = await sdkTaskServer()
  const ours = taskServer(new sdk.InMemoryTaskStore())
  const served = await ours.native.serveHttp()
  try {
    const want = await clientTranscript(Client, StreamableHTTPClientTransport, theirs.url)
    assert.deepEqual(want.required, [-32600, 'MCP error -32600: Tool "wait" requires task-based execution. Use client.experimental.tasks.callToolStream() instead.'])
    assert.deepEqual(want.wait, ['working', 'completed', 'waited 30'])
    assert.equal(want.ask, 'accept Ada')
    // Against the SDK's server (2025-11-25) and against libmcp (2026-07-28, the tasks extension).
    const got = await clientTranscript(sdk.Client, sdk.StreamableHTTPClientTransport, theirs.url)
    const modern = await clientTranscript(sdk.Client, sdk.StreamableHTTPClientTransport, new URL(served.url))
    assert.deepEqual(got, want)
    // A 2026-07-28 listing says nothing of tasks (the extension's tools are called with it
    // declared), so the client cannot refuse the plain call: the server does.
    assert.deepEqual(modern.tools, { wait: undefined, ask: undefined, maybe: undefined })
    assert.equal(modern.required[0], -32021)
    delete modern.tools
    delete modern.required
    delete want.tools
    delete want.required
    assert.deepEqual(modern, want)
  } finally {
    await theirs.close()
    await ours.close()
  }
})

test('libmcp/sdk\'s Client refuses a task TTL, a stream without a tool name and a task of another request, naming why', async () => {
  const mcp = taskServer(new sdk.InMemoryTaskStore())
  const served = await mcp.native.serveHttp()
  const client = new sdk.Client({ name: 'c', version: '1' })
  await client.connect(new sdk.StreamableHTTPClientTransport(new URL(served.url)))
  try {
    const first = (gen) => gen.next()
    await assert.rejects(first(client.experimental.tasks.callToolStream({ name: 'wait' }, undefined, { task: { ttl: 5 } })),
      /options\.task\.ttl is not supported by libmcp\/sdk: the engine's client asks for no TTL/)
    await assert.rejects(first(client.experimental.tasks.callToolStream('wait')), /callToolStream params must be \{name, arguments\?\}, got string/)
    await assert.rejects(first(client.experimental.tasks.requestStream({ method: 'ping' }, EmptyResultSchema, { task: {} })),
      /requestStream: ping cannot run as a task here \(the engine's client runs tools\/call as tasks only\)/)
  } finally {
    await client.close()
    await mcp.close()
  }
})
