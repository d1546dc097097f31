'use strict'
// What the SDK client's experimental `callToolStream` yields for one call, for the tests that
// compare task runs (sdk_tasks.test.js, sdk_examples.test.js).

/** Calls tool `name` with `client.experimental.tasks.callToolStream` (the SDK's Client or
 * libmcp/sdk's): resolves to `{statuses, result}` or `{statuses, error}`, the task's statuses in
 * order, each once, and the result (or the error's message) the stream ends with. */
async function taskStream (client, name, args = {}) {
  const statuses = []
  let end
  for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args })) {
    if (m.type === 'taskCreated' || m.type === 'taskStatus') {
      if (statuses.at(-1) !== m.task.status) statuses.push(m.task.status)
    } else {
      end = m.type === 'result' ? { result: m.result } : { error: m.error.message }
    }
  }
  return { statuses, ...end }
}

module.exports = { taskStream }
