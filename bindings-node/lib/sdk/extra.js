'use strict'
// What the official TypeScript SDK hands a handler as its second argument (`extra`), made from this
// package's request context, and the requests a handler sends to the client through it.
//
// A request to the client (`extra.sendRequest`, `server.server.elicitInput`, `createMessage`,
// `listRoots`) is an input round of the engine (MRTR on modern sessions, a real request on legacy
// ones, as `inputRequired` is): the first call without an answer ends this run of the handler with
// `inputRequired`, and the handler runs again from the start once the client answered, every
// earlier answer given back in order (they travel in the sealed `requestState`). Code before a
// request therefore runs once per round: a deliberate difference from the SDK, where the handler
// waits. The handlers of the low-level Server (low_level_server.js) wait as the SDK's do on a
// legacy session: each request is a real request of its own whose answer the handler awaits
// (`RequestContext::request_client`), so code with side effects before a request (the SDK's
// simpleTaskInteractive takes a message off its queue) runs once; on 2026-07-28 they take input
// rounds like the others, there being no connection to send a request on.

const { AsyncLocalStorage } = require('node:async_hooks')
const { inputRequired } = require('../context')
const native = require('../native')
const { translated } = require('../errors')

/** The request a handler is running for (`{ctx, rounds, owner}`), for the calls that do not take
 * `extra` (`server.server.elicitInput`, `sendLoggingMessage`). */
const current = new AsyncLocalStorage()

const INPUT_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list'])

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** A result checked by `schema` when it is a Zod (or other Standard Schema) schema, as the SDK's
 * `sendRequest(request, resultSchema)` does; anything else leaves it as it is. */
function checkedResult (value, schema) {
  if (schema === undefined || schema === null) return value
  if (typeof schema.parse === 'function') return schema.parse(value)
  return value
}

/** The requests one run of a handler sends the client, numbered in order (`r0`, `r1`, ...). */
class Rounds {
  #ctx
  #next = 0
  #answers
  #ask
  #waits
  constructor (ctx, waits) {
    this.#ctx = ctx
    this.#waits = waits
    /** Resolves to the `inputRequired` answer once the handler asks what the client has not
     * answered yet. */
    this.needed = new Promise((resolve) => { this.#ask = resolve })
  }

  /** Every answer so far: the earlier rounds' (kept in the request state) and this round's. */
  #all () {
    if (this.#answers === undefined) {
      const state = this.#ctx.requestState
      this.#answers = { ...(state ? JSON.parse(state) : {}), ...this.#ctx.inputResponses }
    }
    return this.#answers
  }

  /** Resolves to the client's answer to `request` (`{method, params}`), checked by `schema`; never
   * resolves when the client has not answered yet (this run of the handler is over, see above). */
  request (request, schema) {
    if (request === null || typeof request !== 'object') return Promise.reject(new TypeError(`sendRequest: request must be an object, got ${describe(request)}`))
    const { method, params } = request
    if (!INPUT_METHODS.has(method)) {
      return Promise.reject(new TypeError(`sendRequest: ${JSON.stringify(method)} cannot be sent from a handler; this package sends elicitation/create, sampling/createMessage and roots/list`))
    }
    if (this.#waits && this.#ctx.era === 'legacy') {
      const id = this.#ctx.nativeId
      const text = params === undefined ? undefined : JSON.stringify(params)
      return translated(() => native.requestClient(id, method, text)).then((answer) => checkedResult(JSON.parse(answer), schema))
    }
    const key = `r${this.#next++}`
    const answers = this.#all()
    if (Object.prototype.hasOwnProperty.call(answers, key)) {
      try {
        return Promise.resolve(checkedResult(answers[key], schema))
      } catch (e) {
        return Promise.reject(e)
      }
    }
    const input = params === undefined ? { method } : { method, params }
    this.#ask(inputRequired({ [key]: input }, JSON.stringify(answers)))
    return new Promise(() => {})
  }
}

const PROGRESS = 'notifications/progress'
const MESSAGE = 'notifications/message'
const UPDATED = 'notifications/resources/updated'
const LIST_CHANGED = new Set(['notifications/tools/list_changed', 'notifications/resources/list_changed', 'notifications/prompts/list_changed'])

/** Sends notification `{method, params}` in request `ctx`'s stream: progress, log messages and
 * resource updates; the list-changed ones are sent by the engine itself when registrations change
 * (sending one is a no-op). Any other method is refused. */
function notify (ctx, owner, notification) {
  if (notification === null || typeof notification !== 'object') throw new TypeError(`sendNotification: notification must be an object, got ${describe(notification)}`)
  const { method, params = {} } = notification
  if (method === PROGRESS) {
    ctx.progress(params.progress, params.total, params.message)
  } else if (method === MESSAGE) {
    ctx.log(params.level, params.data, params.logger)
  } else if (method === UPDATED) {
    owner.notifyResourceUpdated(params.uri)
  } else if (!LIST_CHANGED.has(method)) {
    throw new TypeError(`sendNotification: ${JSON.stringify(method)} cannot be sent from a handler; this package sends ${PROGRESS}, ${MESSAGE}, ${UPDATED} and the list_changed notifications`)
  }
}

/** The SDK's `RequestHandlerExtra` over request context `ctx`: each field is read when asked. */
class Extra {
  #ctx
  #rounds
  #owner
  constructor (ctx, rounds, owner) {
    this.#ctx = ctx
    this.#rounds = rounds
    this.#owner = owner
  }

  /** Aborts when the client cancels the request. */
  get signal () { return this.#ctx.signal }
  /** The legacy HTTP session's id, if any (an HTTP+SSE session's: the SSEServerTransport's). */
  get sessionId () { return this.#ctx.sessionId ?? this.#ctx.transportSessionId }
  /** The request's `params._meta` (`progressToken` among it). */
  get _meta () { return this.#ctx.meta }
  /** The JSON-RPC id of the request. */
  get requestId () { return this.#ctx.requestId }
  /** What the application's web server said about the caller (`req.auth`). */
  get authInfo () { return this.#ctx.authInfo }
  /** Over HTTP, `{headers}` of the request. */
  get requestInfo () { return this.#ctx.requestInfo }
  /** This package's own context of the request (era, input rounds, tasks, ...). */
  get context () { return this.#ctx }
  /** On a legacy HTTP session (whose client can resume a stream with Last-Event-ID), ends the
   * request's event stream now: the client reconnects and is replayed what it missed, and the
   * handler goes on (SEP-1699 polling; `ctx.closeStream()`). Undefined elsewhere, as the SDK
   * leaves it undefined where it cannot close a stream. */
  get closeSSEStream () {
    const ctx = this.#ctx
    if (ctx.era !== 'legacy' || ctx.sessionId === undefined) return undefined
    return () => { ctx.closeStream() }
  }

  sendNotification (notification) {
    try {
      notify(this.#ctx, this.#owner, notification)
      return Promise.resolve()
    } catch (e) {
      return Promise.reject(e)
    }
  }

  sendRequest (request, resultSchema) {
    return this.#rounds.request(request, resultSchema)
  }
}

/** Runs `f(extra)` for request `ctx` of server `owner` (a package Server): resolves to what `f`
 * gives, or to `inputRequired` when it asks the client something not answered yet (with `waits`,
 * on a legacy session, its requests are sent at once and awaited instead: see above). */
function runWithExtra (ctx, owner, f, waits = false) {
  const rounds = new Rounds(ctx, waits)
  const extra = new Extra(ctx, rounds, owner)
  const out = current.run({ ctx, rounds, owner }, () => f(extra))
  return Promise.race([out, rounds.needed])
}

module.exports = { current, runWithExtra, notify }
