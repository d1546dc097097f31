'use strict'
// The official TypeScript SDK's experimental tasks API on McpServer (`server.experimental.tasks.
// registerToolTask`, the `taskStore` option, `extra.taskStore`) and on the low-level server as
// handlers reach it (`server.server.experimental.tasks.elicitInputStream`), mapped onto the
// engine's tasks (`execution.taskSupport`, lib/server.js).
//
// The engine makes the task the client sees when the call asks for one, and runs the tool's
// handler inside it: here that handler calls the SDK-style `createTask(args, extra)`, which makes
// a record in the task store and starts the work, then waits until the record ends (the work
// calls `storeTaskResult`) and answers with the stored result, which completes the engine's task.
// A call that asks for no task (a tool with `taskSupport: 'optional'`) is answered the same way
// once the record ends, as the SDK's McpServer polls its store for such a call.

const { isTerminal, watch, announce, checkedStore, checkedQueue } = require('./task_store')
const { current } = require('./extra')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** How often a store of the application's own (one that does not announce its changes, see
 * task_store.js) is asked whether a record ended, when the record names no `pollInterval`. */
const POLL_MS = 1000

/** The `taskStore` and `taskMessageQueue` options of `new McpServer(info, options)`, checked;
 * `rest` is every other option. */
function taskOptions (options) {
  const { taskStore, taskMessageQueue, ...rest } = options
  if (taskStore !== undefined) checkedStore(taskStore, 'taskStore')
  if (taskMessageQueue !== undefined) {
    checkedQueue(taskMessageQueue, 'taskMessageQueue')
    if (taskStore === undefined) throw new TypeError('taskMessageQueue needs the taskStore option too')
  }
  return { taskStore, rest }
}

/** Waits until record `taskId` of `store` ended (announced, or seen every `pollMs`); resolves to
 * the record, rejects with `signal`'s reason when it aborts first. */
function untilEnded (store, taskId, sessionId, pollMs, signal) {
  return new Promise((resolve, reject) => {
    let timer
    let busy = false
    let again = false
    const stop = () => {
      unwatch()
      clearTimeout(timer)
      signal?.removeEventListener('abort', aborted)
    }
    const aborted = () => {
      stop()
      reject(signal.reason)
    }
    const look = async () => {
      if (busy) { again = true; return }
      busy = true
      clearTimeout(timer)
      try {
        const task = await store.getTask(taskId, sessionId)
        if (!task) throw new Error(`task ${taskId} is no longer in the task store`)
        if (isTerminal(task.status)) {
          stop()
          return resolve(task)
        }
      } catch (e) {
        stop()
        return reject(e)
      } finally {
        busy = false
      }
      if (again) {
        again = false
        return look()
      }
      timer = setTimeout(look, pollMs)
      timer.unref()
    }
    const unwatch = watch(store, taskId, look)
    if (signal?.aborted) return aborted()
    signal?.addEventListener('abort', aborted, { once: true })
    look()
  })
}

/** The SDK's request task store (`extra.taskStore`): `store` bound to one request. On a request
 * the engine runs again after an input round, `createTask` gives the record made by the first run
 * (`runs` keeps it per engine task id). */
class RequestTaskStore {
  #store
  #extra
  #request
  #runs
  constructor (store, extra, request, runs) {
    this.#store = store
    this.#extra = extra
    this.#request = request
    this.#runs = runs
  }

  async createTask (taskParams = {}) {
    const engineTask = this.#extra.context.taskId
    const earlier = engineTask === undefined ? undefined : this.#runs.get(engineTask)
    if (earlier !== undefined) return { ...earlier }
    const task = await this.#store.createTask(taskParams, this.#extra.requestId, this.#request, this.#extra.sessionId)
    if (task === null || typeof task !== 'object' || typeof task.taskId !== 'string') {
      throw new TypeError(`taskStore.createTask resolved to ${describe(task)} without a string taskId`)
    }
    if (engineTask !== undefined) this.#runs.set(engineTask, task)
    return task
  }

  async getTask (taskId) {
    const task = await this.#store.getTask(taskId, this.#extra.sessionId)
    if (!task) throw new Error(`Task ${taskId} not found in the task store`)
    return task
  }

  async storeTaskResult (taskId, status, result) {
    await this.#store.storeTaskResult(taskId, status, result, this.#extra.sessionId)
    announce(this.#store, taskId)
  }

  getTaskResult (taskId) {
    return this.#store.getTaskResult(taskId, this.#extra.sessionId)
  }

  async updateTaskStatus (taskId, status, statusMessage) {
    await this.#store.updateTaskStatus(taskId, status, statusMessage, this.#extra.sessionId)
    announce(this.#store, taskId)
  }

  listTasks (cursor) {
    return this.#store.listTasks(cursor, this.#extra.sessionId)
  }
}

/** What `createTask` gets as its `extra`: the request's (the SDK's `RequestHandlerExtra`, read
 * here field by field: its getters need their own object) with `taskStore` and
 * `taskRequestedTtl`. */
function taskExtra (extra, taskStore) {
  return {
    signal: extra.signal,
    sessionId: extra.sessionId,
    _meta: extra._meta,
    requestId: extra.requestId,
    authInfo: extra.authInfo,
    requestInfo: extra.requestInfo,
    context: extra.context,
    closeSSEStream: extra.closeSSEStream,
    sendNotification: (n) => extra.sendNotification(n),
    sendRequest: (r, schema) => extra.sendRequest(r, schema),
    taskStore,
    // The engine keeps the TTL of the task the client sees (the client's ask within `tasks.ttlMs`)
    // and does not hand it to the handler: the store's record gets none unless the handler sets one.
    taskRequestedTtl: undefined,
    taskId: extra.context.taskId,
  }
}

/** The SDK's `server.experimental.tasks` of an McpServer. */
class ExperimentalMcpServerTasks {
  #mcp
  #store
  #runs = new Map()
  constructor (mcp, store) {
    this.#mcp = mcp
    this.#store = store
  }

  /** Registers a tool whose work is a task: `config` as `registerTool`'s plus `execution`
   * (`taskSupport` 'required', the default, or 'optional'); `handler` is `{createTask(args, extra),
   * getTask, getTaskResult}` (the last two are the SDK's and, as in the SDK's McpServer, not called:
   * the engine answers `tasks/get` and `tasks/result`). Needs the `taskStore` option. */
  registerToolTask (name, config, handler) {
    if (config === null || typeof config !== 'object') throw new TypeError(`registerToolTask: config must be an object, got ${describe(config)}`)
    if (handler === null || typeof handler !== 'object' || typeof handler.createTask !== 'function') {
      throw new TypeError(`registerToolTask: handler must be an object with a createTask function, got ${describe(handler)}`)
    }
    for (const k of ['getTask', 'getTaskResult']) {
      if (handler[k] !== undefined && typeof handler[k] !== 'function') throw new TypeError(`registerToolTask: handler.${k} must be a function, got ${describe(handler[k])}`)
    }
    const execution = { taskSupport: 'required', ...config.execution }
    if (execution.taskSupport === 'forbidden') throw new Error(`registerToolTask: tool ${name} cannot have taskSupport 'forbidden' (registerTool registers a tool that runs no task)`)
    if (this.#store === undefined) throw new Error(`registerToolTask: tool ${name} runs as a task, which needs the McpServer option taskStore`)
    const run = (args, extra) => this.#run(name, handler, args, extra)
    const cb = config.inputSchema === undefined ? (extra) => run(undefined, extra) : run
    return this.#mcp.registerTool(name, { ...config, execution }, cb)
  }

  async #run (name, handler, args, extra) {
    const request = { method: 'tools/call', params: args === undefined ? { name } : { name, arguments: args } }
    const store = new RequestTaskStore(this.#store, extra, request, this.#runs)
    const te = taskExtra(extra, store)
    const created = await (args === undefined ? handler.createTask(te) : handler.createTask(args, te))
    const task = created && created.task
    if (task === null || typeof task !== 'object' || typeof task.taskId !== 'string') {
      throw new TypeError(`createTask of tool ${name} must resolve to {task} (a task of the task store), got ${describe(created)}`)
    }
    const engineTask = extra.context.taskId
    if (engineTask === undefined) this.#endWithRound(task.taskId, extra.sessionId)
    let ended
    try {
      ended = await untilEnded(this.#store, task.taskId, extra.sessionId, task.pollInterval || POLL_MS, extra.signal)
    } catch (e) {
      if (extra.signal.aborted) await this.#cancelled(task.taskId, extra.sessionId)
      throw e
    } finally {
      if (engineTask !== undefined) this.#runs.delete(engineTask)
    }
    if (ended.status === 'cancelled') {
      throw new Error(`task record ${task.taskId} of tool ${name} was cancelled${ended.statusMessage ? `: ${ended.statusMessage}` : ''}`)
    }
    return this.#store.getTaskResult(task.taskId, extra.sessionId)
  }

  /** A call that runs as no task has nothing to tie its input rounds to: when this run asks the
   * client (and so ends, see extra.js), its record is marked cancelled, and the next round makes
   * its own. */
  #endWithRound (taskId, sessionId) {
    const run = current.getStore()
    if (run === undefined) return
    run.rounds.needed.then(async () => {
      const task = await this.#store.getTask(taskId, sessionId)
      if (task && !isTerminal(task.status)) {
        await this.#store.updateTaskStatus(taskId, 'cancelled', 'The call asked the client for input: its next round made a new record.', sessionId)
        announce(this.#store, taskId)
      }
    }).catch((e) => process.emitWarning(`libmcp/sdk: could not mark task record ${taskId} cancelled: ${e && e.message}`, 'libmcp'))
  }

  /** Marks the record cancelled after the client cancelled the engine's task (as the SDK's
   * `tasks/cancel` marks it). */
  async #cancelled (taskId, sessionId) {
    const task = await this.#store.getTask(taskId, sessionId)
    if (task && !isTerminal(task.status)) {
      await this.#store.updateTaskStatus(taskId, 'cancelled', 'Client cancelled task execution.', sessionId)
      announce(this.#store, taskId)
    }
  }
}

/** The SDK's `server.server.experimental.tasks`: the streaming forms of the requests a handler
 * sends the client. Each stream yields one `{type: 'result', result}` or `{type: 'error', error}`
 * (the engine's input rounds, see extra.js: no `taskCreated`/`taskStatus` messages, since the
 * client is not asked to run these requests as tasks). */
class ExperimentalServerTasks {
  #server
  constructor (server) {
    this.#server = server
  }

  elicitInputStream (params) {
    return oneMessage(() => this.#server.elicitInput(params))
  }

  createMessageStream (params) {
    return oneMessage(() => this.#server.createMessage(params))
  }
}

async function * oneMessage (request) {
  try {
    yield { type: 'result', result: await request() }
  } catch (error) {
    yield { type: 'error', error }
  }
}

module.exports = { taskOptions, ExperimentalMcpServerTasks, ExperimentalServerTasks }
