'use strict'
// The fixtures of the conformance suite's tasks scenarios (tasks-*) for the Node everything-server,
// the same as the Rust one's (examples/src/everything/tasks.rs): a sync-only tool and tools that run
// as tasks, which sleep, fail, ask for input inside the task, or gather input before the task exists.
const path = require('node:path')
const { McpError, ErrorCode, inputRequired, elicit } = require(path.join(__dirname, '..', '..', 'bindings-node'))

const text = (t) => ({ content: [{ type: 'text', text: t }] })

/** Sleeps `ms`, or rejects when `signal` aborts (a cancelled task). */
function sleep (ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason) }, { once: true })
  })
}

function form (field, type, description) {
  return { type: 'object', properties: { [field]: { type, description } }, required: [field] }
}

/** The accepted content of the elicitation answer named `key`, if any. */
function accepted (ctx, key) {
  const answer = ctx.inputResponse(key)
  return answer && answer.action === 'accept' && answer.content && typeof answer.content === 'object' ? answer.content : undefined
}

function register (server) {
  const taskTool = (name, description, taskSupport, properties, handler, extra = {}) =>
    server.tool(name, { description, inputSchema: { type: 'object', properties }, execution: { taskSupport }, ...extra }, handler)

  server.tool('greet', {
    description: 'Sync-only: greets by name',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  }, ({ name }) => text(`Hello, ${name ?? 'World'}!`))

  taskTool('slow_compute', 'Task-supporting: sleeps `seconds` seconds, then reports the label (stops when cancelled)', 'optional',
    { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
    async ({ seconds = 0, label = 'unlabelled' }, ctx) => {
      await sleep(seconds * 1000, ctx.signal)
      return text(`Computed ${label} after ${seconds} s`)
    })

  taskTool('failing_job', 'Task-required: fails with a tool error after about a second', 'required', {}, async (_a, ctx) => {
    await sleep(1000, ctx.signal)
    return { content: [{ type: 'text', text: 'failing_job always fails' }], isError: true }
  })

  taskTool('protocol_error_job', 'Task-supporting: ends with a protocol (JSON-RPC) error', 'optional', {}, () => {
    throw new McpError('protocol_error_job always fails with a protocol error', { code: ErrorCode.InternalError })
  })

  taskTool('confirm_delete', 'Task-supporting: asks the user to confirm deleting `filename` (inside the task), then reports', 'optional',
    { filename: { type: 'string' } },
    ({ filename = 'the file' }, ctx) => {
      const confirm = accepted(ctx, 'confirm')?.confirm
      if (typeof confirm !== 'boolean') {
        return inputRequired({ confirm: elicit(`Delete ${filename}?`, form('confirm', 'boolean', 'Confirm the deletion')) })
      }
      return text(confirm ? `Deleted ${filename}` : `Kept ${filename}`)
    })

  taskTool('multi_input', 'Task-supporting: asks two questions at once, then reports both answers', 'optional', {}, (_a, ctx) => {
    const name = accepted(ctx, 'name')?.name
    const confirm = accepted(ctx, 'confirm')?.confirm
    if (typeof name === 'string' && typeof confirm === 'boolean') return text(`name=${name}, confirm=${confirm}`)
    return inputRequired({
      name: elicit('What is your name?', form('name', 'string', 'Your name')),
      confirm: elicit('Confirm?', form('confirm', 'boolean', 'Confirm')),
    })
  })

  // Round 1 asks for user_name before any task exists; the round that brings the answer starts
  // the task, whose result greets the user.
  taskTool('test_tool_with_task', 'Task-required: asks for the user\'s name synchronously (MRTR), then runs as a task that greets them', 'required', {},
    async (_a, ctx) => {
      const name = accepted(ctx, 'user_name')?.name
      if (typeof name !== 'string') return inputRequired({ user_name: elicit('What is your name?', form('name', 'string', 'Your name')) })
      ctx.startTask()
      await sleep(200, ctx.signal)
      return text(`Hello, ${name}! (from the task)`)
    }, { deferTask: true })
}

module.exports = { register }
