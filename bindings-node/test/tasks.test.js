'use strict'
// Tasks: tools run as tasks on the Node server (task support per tool, handlers inside the task or
// starting it themselves, the task options and a JS task store) and the client's task calls
// (callToolAsTask, waitTask, getTask, cancelTask, listTasks, callToolTask) in both eras, over
// Streamable HTTP and stdio, against the Node server and the Rust everything-server.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Server, Client, McpError, CancelledError, InvalidArgumentError } = require('..')
const { register } = require('../../examples/node/everything-tasks')
const { BIN_DIR, LEGACY, MODERN } = require('./helpers')

const EVERYTHING_JS = path.join(__dirname, '..', '..', 'examples', 'node', 'everything-server.js')
const EVERYTHING_RS = path.join(BIN_DIR, 'everything-server')
const ERAS = [['modern', MODERN], ['legacy', LEGACY]]

/** Answers every elicitation: `confirm: true` and the name Ada. */
const onElicitation = (params) => {
  const field = Object.keys(params.requestedSchema.properties)[0]
  return { action: 'accept', content: { [field]: field === 'confirm' ? true : 'Ada' } }
}

/** A Node server with the everything-server's task tools over HTTP; clients poll every 20 ms. */
async function taskServer (tasks = {}) {
  const server = new Server({ name: 'tasks-node', version: '1' }, { tasks: { pollIntervalMs: 20, ...tasks } })
  register(server)
  const http = await server.serveHttp()
  return { server, url: http.url }
}

const firstText = (r) => r.content[0].text

/** The task behaviours every server and transport must show, for a connected client. */
async function taskBehaviours (c, era) {
  const created = await c.callToolAsTask('slow_compute', { seconds: 0.05, label: 'x' })
  assert.ok(created.task, JSON.stringify(created))
  assert.equal(typeof created.task.taskId, 'string')
  assert.ok(['working', 'completed'].includes(created.task.status))
  assert.equal(firstText(await c.waitTask(created.task)), 'Computed x after 0.05 s')
  const done = await c.getTask(created.task.taskId)
  assert.equal(done.status, 'completed')

  // Status changes pushed to a subscription by task id (a listen stream declaring the tasks
  // extension, or the 2025-11-25 session's notifications), the task as params.
  const watched = (await c.callToolAsTask('slow_compute', { seconds: 0.3, label: 'watched' })).task
  const sub = await c.subscribe({ taskIds: [watched.taskId] })
  try {
    assert.deepEqual(sub.acknowledged.taskIds, [watched.taskId])
    let timer
    const note = await Promise.race([sub.next(), new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no task notification within 10 s')), 10000)
    })]).finally(() => clearTimeout(timer))
    assert.equal(note.method, era === 'modern' ? 'notifications/tasks' : 'notifications/tasks/status')
    assert.equal(note.params.taskId, watched.taskId)
    assert.equal(note.params.status, 'completed')
  } finally {
    await sub.close()
  }

  // Input inside the task is answered by the client's handler; input before it exists too.
  assert.equal(firstText(await c.callToolTask('confirm_delete', { filename: 'a.txt' })), 'Deleted a.txt')
  assert.equal(firstText(await c.callToolTask('multi_input')), 'name=Ada, confirm=true')
  assert.equal(firstText(await c.callToolTask({ name: 'test_tool_with_task', arguments: {} })), 'Hello, Ada! (from the task)')

  // A sync-only tool answers at once; a tool error stays a result; a protocol error rejects.
  const sync = await c.callToolAsTask('greet', { name: 'Bo' })
  assert.equal(sync.task, undefined)
  assert.deepEqual(sync.result.content, [{ type: 'text', text: 'Hello, Bo!' }])
  const failing = await c.callToolTask('failing_job')
  assert.equal(failing.isError, true)
  await assert.rejects(c.callToolTask('protocol_error_job'), (e) => e instanceof McpError && e.code === -32603 &&
    /protocol_error_job always fails/.test(e.message))
  // A task-required tool called the plain way is refused.
  await assert.rejects(c.callTool('failing_job'), (e) => e instanceof McpError && e.code === (era === 'modern' ? -32021 : -32601))

  // Cancellation: the task ends cancelled, and waiting on it rejects with CancelledError.
  const slow = (await c.callToolAsTask('slow_compute', { seconds: 30 })).task
  await c.cancelTask(slow.taskId)
  assert.equal((await c.getTask(slow.taskId)).status, 'cancelled')
  // (At 2025-11-25 tasks/result of a cancelled task is the server's JSON-RPC error.)
  await assert.rejects(c.waitTask(slow.taskId), era === 'modern'
    ? (e) => e instanceof CancelledError
    : (e) => e instanceof McpError && e.code === -32603 && /the task ended cancelled/.test(e.message))

  // Unknown tasks are JSON-RPC errors.
  await assert.rejects(c.getTask('no-such-task'), (e) => e instanceof McpError && e.code === -32602)
  return slow.taskId
}

for (const [era, version] of ERAS) {
  test(`tasks over HTTP, Node client and Node server, ${era} era`, async () => {
    const { server, url } = await taskServer()
    const c = await Client.connectHttp(url, { protocolVersion: version, onElicitation })
    try {
      const cancelled = await taskBehaviours(c, era)
      if (era === 'legacy') {
        const { tasks } = await c.listTasks()
        assert.ok(tasks.some((t) => t.taskId === cancelled && t.status === 'cancelled'), JSON.stringify(tasks))
      } else {
        await assert.rejects(c.listTasks(), (e) => e instanceof McpError && e.code === -32601)
      }
    } finally {
      await c.close()
      await server.close()
    }
  })

  test(`tasks over stdio against the Node everything-server, ${era} era`, async () => {
    const c = await Client.connectStdio(process.execPath, [EVERYTHING_JS], { protocolVersion: version, onElicitation })
    try {
      await taskBehaviours(c, era)
    } finally {
      await c.close()
    }
  })

  test(`tasks over stdio against the Rust everything-server, ${era} era`, async () => {
    const c = await Client.connectStdio(EVERYTHING_RS, [], { protocolVersion: version, onElicitation })
    try {
      await taskBehaviours(c, era)
    } finally {
      await c.close()
    }
  })
}

test('the legacy era tells the client of task status changes (notifications/tasks/status)', async () => {
  const { server, url } = await taskServer()
  const seen = []
  const c = await Client.connectHttp(url, {
    protocolVersion: LEGACY,
    onElicitation,
    onNotification: (method, params) => { if (method === 'notifications/tasks/status') seen.push(params) },
  })
  try {
    const { task } = await c.callToolAsTask('slow_compute', { seconds: 0.05 })
    await c.waitTask(task)
    await c.getTask(task.taskId)
    assert.ok(seen.some((p) => p.taskId === task.taskId && p.status === 'completed'), JSON.stringify(seen))
  } finally {
    await c.close()
    await server.close()
  }
})

test('ctx.taskId inside a task; ctx.startTask() leaves a plain call plain', async () => {
  const server = new Server({ name: 'task-ctx', version: '1' }, { tasks: { pollIntervalMs: 20 } })
  const optional = { execution: { taskSupport: 'optional' } }
  server.tool('task_id', optional, (_a, ctx) => ctx.taskId ?? 'none')
  server.tool('deferred', { ...optional, deferTask: true }, (_a, ctx) => {
    const before = ctx.taskId ?? 'none'
    const started = ctx.startTask() ?? 'none'
    return `${before} ${started} ${ctx.taskId ?? 'none'}`
  })
  const http = await server.serveHttp()
  const c = await Client.connectHttp(http.url, { protocolVersion: MODERN })
  try {
    const { task } = await c.callToolAsTask('task_id')
    assert.equal(firstText(await c.waitTask(task)), task.taskId)
    assert.equal(firstText(await c.callTool('task_id')), 'none')
    const deferred = await c.callToolAsTask('deferred')
    assert.equal(firstText(await c.waitTask(deferred.task)), `none ${deferred.task.taskId} ${deferred.task.taskId}`)
    assert.equal(firstText(await c.callTool('deferred')), 'none none none')
  } finally {
    await c.close()
    await server.close()
  }
})

test('task options: ttlMs and pollIntervalMs reach the task; maxTasks bounds the in-memory store', async () => {
  const { server, url } = await taskServer({ ttlMs: 60000, pollIntervalMs: 25, maxTasks: 1 })
  const c = await Client.connectHttp(url, { protocolVersion: MODERN })
  try {
    const { task } = await c.callToolAsTask('slow_compute', { seconds: 30 })
    assert.equal(task.ttlMs, 60000)
    assert.equal(task.pollIntervalMs, 25)
    await assert.rejects(c.callToolAsTask('slow_compute', { seconds: 1 }), (e) => e instanceof McpError &&
      /could not create the task: the task store is full/.test(e.message))
    await c.cancelTask(task.taskId)
  } finally {
    await c.close()
    await server.close()
  }
})

test('a JS task store keeps the records; its failures fail the task creation, not the server', async () => {
  const records = new Map()
  const ops = []
  let down = false
  const store = {
    async create (r) {
      if (down) throw new Error('the database is down')
      ops.push(`create ${r.status}`)
      records.set(r.id, r)
    },
    put (r) { ops.push(`put ${r.status}`); records.set(r.id, r) },
    get: async (id) => records.get(id),
    list: () => [...records.values()],
  }
  const { server, url } = await taskServer({ store })
  const c = await Client.connectHttp(url, { protocolVersion: LEGACY })
  try {
    const { task } = await c.callToolAsTask('slow_compute', { seconds: 0.05, label: 'kept' })
    assert.equal(firstText(await c.waitTask(task)), 'Computed kept after 0.05 s')
    const record = records.get(task.taskId)
    assert.equal(record.status, 'completed')
    assert.equal(record.result.content[0].text, 'Computed kept after 0.05 s')
    assert.deepEqual([ops[0], ops[ops.length - 1]], ['create working', 'put completed'])
    assert.equal((await c.listTasks()).tasks.length, 1)
    down = true
    await assert.rejects(c.callToolAsTask('slow_compute', { seconds: 0 }), (e) => e instanceof McpError &&
      /could not create the task: .*the database is down/.test(e.message))
    down = false
    assert.equal(firstText(await c.callToolTask('slow_compute', { seconds: 0, label: 'again' })), 'Computed again after 0 s')
  } finally {
    await c.close()
    await server.close()
  }
})

test('bad task arguments are refused with clear errors', async () => {
  const server = new Server({ name: 'tasks-bad', version: '1' })
  assert.throws(() => server.tool('t', { execution: { taskSupport: 'optional' }, deferTask: 'yes' }, () => 'x'),
    { name: 'TypeError', message: 'deferTask must be a boolean' })
  assert.throws(() => server.tool('t', { execution: { taskSupport: 'sometimes' } }, () => 'x'), (e) => e instanceof InvalidArgumentError &&
    /execution.taskSupport must be "forbidden", "optional" or "required"/.test(e.message))
  assert.throws(() => new Server({ name: 'x', version: '1' }, { tasks: { ttlMs: -1 } }), (e) => e instanceof InvalidArgumentError &&
    e.message === 'tasks.ttlMs must be a non-negative integer')
  assert.throws(() => new Server({ name: 'x', version: '1' }, { tasks: { store: { create () {} } } }),
    { name: 'TypeError', message: 'tasks.store.put must be a function, got undefined' })
  assert.throws(() => new Server({ name: 'x', version: '1' }, { tasks: { maxTasks: 3, store: { create () {}, put () {}, get () {}, list () {} } } }),
    (e) => e instanceof InvalidArgumentError && e.message === 'tasks.maxTasks is for the in-memory store, not tasks.store')
  await server.close()

  const { server: s, url } = await taskServer()
  const c = await Client.connectHttp(url, { protocolVersion: MODERN })
  try {
    assert.throws(() => c.getTask(''), { name: 'TypeError', message: 'task id must be a non-empty string' })
    assert.throws(() => c.waitTask(42), { name: 'TypeError', message: 'task must be an object' })
    assert.throws(() => c.callToolAsTask(1), { name: 'TypeError', message: 'tool name must be a string' })
    await assert.rejects(c.waitTask({ taskId: 'x' }), (e) => e instanceof InvalidArgumentError && /^not a task: /.test(e.message))
  } finally {
    await c.close()
    await s.close()
  }
})
