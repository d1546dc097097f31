'use strict'
// The official TypeScript SDK's experimental task store interface (`TaskStore`: createTask, getTask,
// storeTaskResult, getTaskResult, updateTaskStatus, listTasks) as libmcp/sdk takes it, its
// in-memory implementation and message queue, and the change announcements that let a tool run by
// `registerToolTask` (tasks.js) learn at once that the handler stored its result.
//
// The engine keeps the tasks the client sees (lib/server.js `tasks`): this store holds the
// handler's own record of its work (see README.md, "Tasks of registerToolTask").

const { randomUUID } = require('node:crypto')

const TERMINAL = new Set(['completed', 'failed', 'cancelled'])
const STATUSES = new Set(['working', 'input_required', ...TERMINAL])
const STORE_METHODS = ['createTask', 'getTask', 'storeTaskResult', 'getTaskResult', 'updateTaskStatus', 'listTasks']
const QUEUE_METHODS = ['enqueue', 'dequeue', 'dequeueAll']
/** How many tasks one `listTasks` page holds. */
const PAGE = 10

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** Whether a task in `status` has ended (the SDK's `isTerminal`). */
function isTerminal (status) {
  return TERMINAL.has(status)
}

/** Listeners of task changes, per store and task id (see `announce`). */
const listeners = new WeakMap()

/** Calls `fn()` whenever `store` announces a change of task `taskId`; returns what stops that. */
function watch (store, taskId, fn) {
  let byId = listeners.get(store)
  if (byId === undefined) listeners.set(store, (byId = new Map()))
  let set = byId.get(taskId)
  if (set === undefined) byId.set(taskId, (set = new Set()))
  set.add(fn)
  return () => {
    set.delete(fn)
    if (set.size === 0) byId.delete(taskId)
  }
}

/** Tells the watchers of task `taskId` of `store` that it changed. */
function announce (store, taskId) {
  const set = listeners.get(store)?.get(taskId)
  if (set) for (const fn of [...set]) fn()
}

/** `store` when it has every method of the SDK's TaskStore, else a TypeError naming what lacks. */
function checkedStore (store, what) {
  if (store === null || typeof store !== 'object') throw new TypeError(`${what} must be an object with the SDK's TaskStore methods, got ${describe(store)}`)
  const missing = STORE_METHODS.filter((m) => typeof store[m] !== 'function')
  if (missing.length) throw new TypeError(`${what} lacks the TaskStore method${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  return store
}

/** `queue` when it has the SDK's TaskMessageQueue methods, else a TypeError. */
function checkedQueue (queue, what) {
  if (queue === null || typeof queue !== 'object') throw new TypeError(`${what} must be an object with the SDK's TaskMessageQueue methods, got ${describe(queue)}`)
  const missing = QUEUE_METHODS.filter((m) => typeof queue[m] !== 'function')
  if (missing.length) throw new TypeError(`${what} lacks the TaskMessageQueue method${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  return queue
}

function checkedStatus (status) {
  if (!STATUSES.has(status)) throw new TypeError(`task status must be one of ${[...STATUSES].join(', ')}, got ${JSON.stringify(status)}`)
  return status
}

/** Task records in this process's memory, each dropped `ttl` ms after it was created or last
 * ended (none without a ttl). A task created with a session id is found only by calls that name
 * the same session or none, as the SDK's store finds it. */
class InMemoryTaskStore {
  #tasks = new Map()
  #timers = new Map()

  #entry (taskId, sessionId) {
    const e = this.#tasks.get(taskId)
    if (e === undefined) return undefined
    if (sessionId !== undefined && e.sessionId !== undefined && e.sessionId !== sessionId) return undefined
    return e
  }

  #found (taskId, sessionId) {
    const e = this.#entry(taskId, sessionId)
    if (e === undefined) throw new Error(`Task with ID ${taskId} not found`)
    return e
  }

  #expireIn (taskId, ttl) {
    clearTimeout(this.#timers.get(taskId))
    if (!ttl) return
    const timer = setTimeout(() => {
      this.#tasks.delete(taskId)
      this.#timers.delete(taskId)
    }, ttl)
    timer.unref()
    this.#timers.set(taskId, timer)
  }

  #touch (e) {
    e.task.lastUpdatedAt = new Date().toISOString()
  }

  /** Creates a `working` task (`taskParams`: `{ttl, pollInterval}`) for request `request` (id
   * `requestId`) of session `sessionId`; resolves to the task. */
  async createTask (taskParams = {}, requestId, request, sessionId) {
    if (taskParams === null || typeof taskParams !== 'object') throw new TypeError(`createTask: taskParams must be an object, got ${describe(taskParams)}`)
    const now = new Date().toISOString()
    const task = {
      taskId: randomUUID(),
      status: 'working',
      ttl: taskParams.ttl ?? null,
      createdAt: now,
      lastUpdatedAt: now,
      pollInterval: taskParams.pollInterval ?? 1000,
    }
    this.#tasks.set(task.taskId, { task, requestId, request, sessionId, result: undefined })
    this.#expireIn(task.taskId, task.ttl)
    return { ...task }
  }

  /** The task, or null when there is none (for this session). */
  async getTask (taskId, sessionId) {
    const e = this.#entry(taskId, sessionId)
    return e === undefined ? null : { ...e.task }
  }

  /** Ends the task with `status` and `result` (once: a task that ended throws). */
  async storeTaskResult (taskId, status, result, sessionId) {
    const e = this.#found(taskId, sessionId)
    checkedStatus(status)
    if (isTerminal(e.task.status)) throw new Error(`Task ${taskId} is ${e.task.status} already: its result is stored once`)
    e.task.status = status
    e.result = result
    this.#touch(e)
    this.#expireIn(taskId, e.task.ttl)
    announce(this, taskId)
  }

  /** The result stored for the task (throws when there is none yet). */
  async getTaskResult (taskId, sessionId) {
    const e = this.#found(taskId, sessionId)
    if (e.result === undefined) throw new Error(`Task ${taskId} has no result stored`)
    return e.result
  }

  /** Sets the task's status (and `statusMessage`); a task that ended throws. */
  async updateTaskStatus (taskId, status, statusMessage, sessionId) {
    const e = this.#found(taskId, sessionId)
    checkedStatus(status)
    if (isTerminal(e.task.status)) throw new Error(`Task ${taskId} is ${e.task.status} already and cannot become ${status}`)
    e.task.status = status
    if (statusMessage) e.task.statusMessage = statusMessage
    this.#touch(e)
    if (isTerminal(status)) this.#expireIn(taskId, e.task.ttl)
    announce(this, taskId)
  }

  /** One page of the tasks this session finds (`{tasks, nextCursor?}`, ten a page); the cursor is
   * the last task id of the page before. */
  async listTasks (cursor, sessionId) {
    const ids = [...this.#tasks.keys()].filter((id) => this.#entry(id, sessionId) !== undefined)
    let from = 0
    if (cursor !== undefined && cursor !== null) {
      const at = ids.indexOf(cursor)
      if (at < 0) throw new Error(`Invalid cursor: ${cursor}`)
      from = at + 1
    }
    const page = ids.slice(from, from + PAGE)
    const out = { tasks: page.map((id) => ({ ...this.#tasks.get(id).task })) }
    if (from + PAGE < ids.length) out.nextCursor = page[page.length - 1]
    return out
  }

  /** Drops every task and timer. */
  cleanup () {
    for (const timer of this.#timers.values()) clearTimeout(timer)
    this.#timers.clear()
    this.#tasks.clear()
  }

  /** Every task of every session. */
  getAllTasks () {
    return [...this.#tasks.values()].map((e) => ({ ...e.task }))
  }
}

/** Messages queued per task, first in first out. libmcp/sdk's McpServer takes one (as the SDK's
 * does) but does not queue into it: the engine sends a task's input requests itself. */
class InMemoryTaskMessageQueue {
  #queues = new Map()

  /** Appends `message` to the task's queue; throws when the queue holds `maxSize` already. */
  async enqueue (taskId, message, _sessionId, maxSize) {
    let q = this.#queues.get(taskId)
    if (q === undefined) this.#queues.set(taskId, (q = []))
    if (maxSize !== undefined && q.length >= maxSize) throw new Error(`Task message queue of ${taskId} is full (${q.length} of at most ${maxSize})`)
    q.push(message)
  }

  /** Takes the task's first message (undefined when there is none). */
  async dequeue (taskId, _sessionId) {
    const q = this.#queues.get(taskId)
    const m = q?.shift()
    if (q && q.length === 0) this.#queues.delete(taskId)
    return m
  }

  /** Takes every message of the task. */
  async dequeueAll (taskId, _sessionId) {
    const q = this.#queues.get(taskId) ?? []
    this.#queues.delete(taskId)
    return q
  }
}

module.exports = { InMemoryTaskStore, InMemoryTaskMessageQueue, isTerminal, watch, announce, checkedStore, checkedQueue }
