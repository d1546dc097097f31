'use strict'
// The official TypeScript SDK's experimental task calls of its Client (`client.experimental.tasks`:
// callToolStream, requestStream, getTask, getTaskResult, listTasks, cancelTask) on this package's engine client,
// which runs a tool as a task in either era (the task wire of 2025-11-25, the tasks extension of
// 2026-07-28) and answers the server's input requests while it waits.

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** A task as the engine's client gives it (`ttlMs`, `pollIntervalMs`, and at 2026-07-28 what the
 * status calls for inlined) in the SDK's `Task` shape. */
function sdkTask (t) {
  const out = { taskId: t.taskId, status: t.status }
  if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage
  out.createdAt = t.createdAt
  out.lastUpdatedAt = t.lastUpdatedAt
  out.ttl = t.ttlMs ?? null
  if (t.pollIntervalMs !== undefined) out.pollInterval = t.pollIntervalMs
  return out
}

/** How long to wait before asking for a task's status again. */
function pause (ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(done, ms)
    function done () {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }
    function aborted () {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal?.addEventListener('abort', aborted, { once: true })
  })
}

/** `client.experimental.tasks` of libmcp/sdk's Client. `deps`: `native()` (the engine client, or a
 * throw when not connected), `options(o)` (the SDK's request options as the engine client's),
 * `request(request, schema, options)` (the Client's `request`), `parsed(r, schema)`,
 * `result(name, r, schema)` (a tool result checked as `callTool` checks it), `taskSupport(name)`
 * (the tool's `execution.taskSupport` from the last `listTools`) and `McpError`. */
class ClientTasks {
  #deps
  constructor (deps) {
    this.#deps = deps
  }

  /** Calls a tool and yields what happens, as the SDK's: `{type: 'taskCreated', task}`, then
   * `{type: 'taskStatus', task}` at each poll, and at the end one `{type: 'result', result}` or
   * `{type: 'error', error}`. The call asks for a task when `options.task` is given, the last
   * `listTools` listed the tool with `taskSupport` 'required' or 'optional', or the server speaks
   * 2026-07-28 (whose listings say nothing of tasks); the server may answer at once (one
   * `result`). `options.task.ttl` is refused: the engine's client asks for no TTL. */
  async * callToolStream (params, resultSchema, options) {
    const d = this.#deps
    if (params === null || typeof params !== 'object' || typeof params.name !== 'string') {
      throw new TypeError(`callToolStream params must be {name, arguments?}, got ${describe(params)}`)
    }
    const asked = taskOption(options)
    const opts = d.options(options)
    try {
      const client = d.native()
      // A 2026-07-28 server lists no `execution`: every call there offers to run as a task (the
      // client declares the tasks extension) and the server decides.
      const asTask = asked || client.era === 'modern' || ['required', 'optional'].includes(d.taskSupport(params.name))
      if (!asTask) {
        yield { type: 'result', result: d.result(params.name, await client.callTool(params.name, params.arguments ?? {}, opts), resultSchema) }
        return
      }
      const created = await client.callToolAsTask(params.name, params.arguments ?? {}, opts)
      if (!created.task) {
        yield { type: 'result', result: d.result(params.name, created.result, resultSchema) }
        return
      }
      yield { type: 'taskCreated', task: sdkTask(created.task) }
      let task = created.task
      for (;;) {
        task = await client.getTask(task.taskId, opts)
        yield { type: 'taskStatus', task: sdkTask(task) }
        if (task.status === 'failed' || task.status === 'cancelled') {
          yield { type: 'error', error: new d.McpError(d.ErrorCode.InternalError, `Task ${task.taskId} ${task.status === 'failed' ? 'failed' : 'was cancelled'}`) }
          return
        }
        // Completed, or waiting for input: the engine's client answers the server's input
        // requests while it follows the task to its result.
        if (task.status === 'completed' || task.status === 'input_required') break
        await pause(task.pollIntervalMs ?? 1000, options?.signal)
      }
      yield { type: 'result', result: d.result(params.name, await client.waitTask(created.task, opts), resultSchema) }
    } catch (error) {
      yield { type: 'error', error: error instanceof d.McpError ? error : new d.McpError(d.ErrorCode.InternalError, String(error)) }
    }
  }

  /** Sends `request` and yields what happens, as the SDK's: with `options.task`, a `tools/call`
   * runs as `callToolStream` runs it (asking for a task for another request is refused: the
   * engine's client runs tool calls only as tasks); without, the request's one result (or
   * error). */
  async * requestStream (request, resultSchema, options) {
    if (request === null || typeof request !== 'object' || typeof request.method !== 'string') {
      throw new TypeError(`requestStream: request must be {method, params?}, got ${describe(request)}`)
    }
    if (taskOption(options)) {
      if (request.method !== 'tools/call') throw new TypeError(`requestStream: ${request.method} cannot run as a task here (the engine's client runs tools/call as tasks only)`)
      yield * this.callToolStream(request.params, resultSchema, options)
      return
    }
    try {
      yield { type: 'result', result: await this.#deps.request(request, resultSchema, options) }
    } catch (error) {
      yield { type: 'error', error }
    }
  }

  /** The task's current state (`tasks/get`), in the SDK's shape. */
  async getTask (taskId, options) {
    return sdkTask(await this.#deps.native().getTask(taskId, this.#deps.options(options)))
  }

  /** The task's result once it ended (`tasks/result` at 2025-11-25; polled at 2026-07-28),
   * parsed by `resultSchema` when given. A failed task rejects with its error. */
  async getTaskResult (taskId, resultSchema, options) {
    const result = await this.#deps.native().waitTask(taskId, this.#deps.options(options))
    return this.#deps.parsed(result, resultSchema)
  }

  /** One page of `tasks/list` (2025-11-25 only: the extension of 2026-07-28 lists no tasks). */
  async listTasks (cursor, options) {
    const page = await this.#deps.native().listTasks(cursor === undefined ? {} : { cursor }, this.#deps.options(options))
    const out = { tasks: (page.tasks ?? []).map((t) => t.ttlMs === undefined && t.ttl !== undefined ? t : sdkTask(t)) }
    if (page.nextCursor !== undefined) out.nextCursor = page.nextCursor
    return out
  }

  /** Asks the server to cancel the task; resolves to the task as it is then. */
  async cancelTask (taskId, options) {
    const client = this.#deps.native()
    await client.cancelTask(taskId, this.#deps.options(options))
    return sdkTask(await client.getTask(taskId, this.#deps.options(options)))
  }
}

/** Whether the request options ask for a task (`task: {}`); a TTL is refused with why. */
function taskOption (options) {
  const task = options?.task
  if (task === undefined) return false
  if (task === null || typeof task !== 'object') throw new TypeError(`options.task must be an object, got ${describe(task)}`)
  if (task.ttl !== undefined) throw new TypeError('options.task.ttl is not supported by libmcp/sdk: the engine\'s client asks for no TTL (the server\'s own applies)')
  return true
}

module.exports = { ClientTasks }
