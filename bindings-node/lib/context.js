'use strict'
// What a handler receives besides its arguments: the request's context, progress and logging, an
// AbortSignal, and the answers to earlier input requests (MRTR). Everything here reads or calls
// the addon's request functions (bindings-node/src/request.rs).

const native = require('../index.js')
const { translatedSync } = require('./errors')
const hostValues = require('./host_values')

/** Input the handler needs before it can finish; return it from a handler (see `inputRequired`). */
class InputRequired {
  constructor (requests, state) {
    if (requests === null || typeof requests !== 'object' || Array.isArray(requests)) {
      throw new TypeError('inputRequired: requests must be an object keyed by name')
    }
    if (state !== undefined && typeof state !== 'string') {
      throw new TypeError('inputRequired: state must be a string')
    }
    this.requests = requests
    this.state = state
  }
}

/** An answer asking the client for input: `requests` maps names to `{method, params}` input
 * requests (`elicitation/create`, `sampling/createMessage`, `roots/list`); `state` comes back
 * verified on the retry as `ctx.requestState`. Modern clients get an MRTR `input_required`
 * result; on legacy connections the engine sends real requests and calls the handler again. */
function inputRequired (requests, state) {
  return new InputRequired(requests, state)
}

/** An `elicitation/create` input request in form mode. */
function elicit (message, requestedSchema) {
  return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } }
}

/** An `elicitation/create` input request in URL mode. */
function elicitUrl (message, url, elicitationId) {
  const params = { mode: 'url', message, url }
  if (elicitationId !== undefined) params.elicitationId = elicitationId
  return { method: 'elicitation/create', params }
}

/** A `sampling/createMessage` input request. */
function createMessage (params) {
  return { method: 'sampling/createMessage', params }
}

/** A `roots/list` input request. */
function listRoots () {
  return { method: 'roots/list' }
}

const LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

/** The context of one request, pending in the addon under the number `id`. The params come with
 * the call; the rest is fetched from the addon (one JSON text) the first time any of it is read,
 * which must be before the request is answered. */
class Context {
  #id
  #info
  #signal
  #task
  constructor (id, params) {
    this.#id = id
    /** The request's params, `_meta` included. */
    this.params = params
    /** `params._meta`, if any. */
    this.meta = params && params._meta
  }

  /** The request's number in the addon (what its `request*` functions take). */
  get nativeId () { return this.#id }

  #get (key) {
    if (this.#info === undefined) {
      const text = native.requestContext(this.#id)
      this.#info = text == null ? {} : JSON.parse(text)
    }
    return this.#info[key]
  }

  /** The JSON-RPC id. */
  get requestId () { return this.#get('id') }
  /** The method (`tools/call`, `resources/read`, ...). */
  get method () { return this.#get('method') }
  /** The protocol version this request is served under. */
  get protocolVersion () { return this.#get('protocolVersion') }
  /** `'modern'` (2026-07-28) or `'legacy'`. */
  get era () { return this.#get('era') }
  /** The client's capabilities (this request's, or the session's). */
  get clientCapabilities () { return this.#get('clientCapabilities') }
  /** The client's implementation object, if known. */
  get clientInfo () { return this.#get('clientInfo') }
  /** How many input rounds came before this call (0 on the first). */
  get round () { return this.#get('round') }
  /** The verified state attached to the last `inputRequired` answer. */
  get requestState () { return this.#get('requestState') }
  /** The answers to earlier input requests, by name. */
  get inputResponses () { return this.#get('inputResponses') || {} }
  /** Variables a resource template matched. */
  get templateVars () { return this.#get('templateVars') }
  /** The verified access token's facts (HTTP with OAuth), if any. */
  get auth () { return this.#get('auth') }
  /** Over HTTP, the request as the official SDK's `extra.requestInfo` has it: `{headers}`, names
   * lowercase, a repeated header's values joined with `, ` (as node:http joins them). */
  get requestInfo () {
    const headers = this.#get('headers')
    return headers === undefined ? undefined : { headers }
  }

  /** The legacy HTTP session's id (`Mcp-Session-Id`), as the official SDK's `extra.sessionId`. */
  get sessionId () { return this.#get('sessionId') }
  /** The id the host's transport knows the request's session by, where the request carries no
   * `Mcp-Session-Id` (an HTTP+SSE session of libmcp/sdk's SSEServerTransport, lib/sdk/sse_transport.js). */
  get transportSessionId () {
    const value = hostValues.lookup(this.#get('hostRequest'))
    return value === undefined ? undefined : value.sessionId
  }
  /** What the application's web server said about the caller, as the official SDK's
   * `extra.authInfo`: `req.auth` of a request given to `handleRequest`, `options.authInfo` of one
   * given to `fetch` (see lib/mount.js); the engine's own OAuth check is `auth`. */
  get authInfo () {
    const value = hostValues.lookup(this.#get('hostRequest'))
    return value === undefined ? undefined : value.auth
  }

  /** The id of the task this request runs as, once it is one. */
  get taskId () {
    if (this.#task === undefined) this.#task = this.#get('taskId') ?? null
    return this.#task ?? undefined
  }

  /** Runs this request as a task from here on, if it may (a tool with `execution.taskSupport`
   * registered with `deferTask: true`, a client that takes tasks): the client gets the task at
   * once, and what the handler returns completes the task. Resolves to the task id, or
   * `undefined` when the request stays a plain one. A handler registered without `deferTask` runs
   * inside its task from the start. */
  startTask () {
    const id = native.requestStartTask(this.#id)
    if (id != null) this.#task = id
    return this.taskId
  }

  /** The answer to the input request named `key`, if the client gave it. */
  inputResponse (key) {
    return this.inputResponses[key]
  }

  /** The answer to the form elicitation named `key`, asked with `requestedSchema`, checked by the
   * engine against that schema: `undefined` when the client has not given it; a malformed answer,
   * or accepted content that does not match, throws an McpError with code -32602 (as the official
   * SDK's `elicitInput` rejects). `inputResponse(key)` is the same answer unchecked. */
  elicitationAnswer (key, requestedSchema) {
    const text = translatedSync(() => native.requestElicitationAnswer(this.#id, key, JSON.stringify(requestedSchema)))
    return text == null ? undefined : JSON.parse(text)
  }

  /** Aborts when the client cancels the request. */
  get signal () {
    if (!this.#signal) {
      const controller = new AbortController()
      this.#signal = controller.signal
      if (native.requestCancelled(this.#id)) controller.abort()
      else native.requestOnCancel(this.#id, () => controller.abort())
    }
    return this.#signal
  }

  /** Whether the client declared the capability at this path, e.g. `hasClientCapability('elicitation',
   * 'url')` (the engine's rule: a bare `elicitation: {}` means form mode). */
  hasClientCapability (...path) {
    if (!path.every((p) => typeof p === 'string')) throw new TypeError('capability path must be strings')
    return native.requestHasClientCapability(this.#id, path)
  }

  /** Closes the response stream while the request keeps running (SEP-1699 polling on resumable
   * legacy HTTP sessions); `false` where the transport cannot resume (stdio, modern requests). */
  closeStream () {
    return native.requestCloseStream(this.#id)
  }

  /** A handle on the legacy session of this request (stdio, a Streamable HTTP session), kept
   * after the request is answered to send that session a server notification: `notify(method,
   * params)`, `elicitationComplete(elicitationId)`, `isOpen`, `protocolVersion`. Throws
   * `NoSessionError` for a 2026-07-28 request (that revision has no sessions) or a legacy one
   * served without a session. */
  sessionNotifier () {
    return new SessionNotifier(translatedSync(() => native.requestSessionNotifier(this.#id)))
  }

  /** Sends `notifications/progress` if the client asked for progress; `false` if not sent
   * (no progress token, or a value that does not increase). */
  progress (progress, total, message) {
    if (typeof progress !== 'number') throw new TypeError('progress must be a number')
    return native.requestProgress(this.#id, progress, total ?? undefined, message ?? undefined)
  }

  /** Sends `notifications/message` if the client asked for this level. */
  log (level, data, logger) {
    if (!LEVELS.has(level)) throw new TypeError(`unknown log level ${JSON.stringify(level)}`)
    return translatedSync(() => native.requestLog(this.#id, level, logger ?? undefined, JSON.stringify(data ?? null)))
  }
}

/** The addon's handle on a legacy session, its errors as the package's classes. */
class SessionNotifier {
  #native

  constructor (n) {
    this.#native = n
  }

  get protocolVersion () {
    return this.#native.protocolVersion
  }

  get isOpen () {
    return this.#native.isOpen
  }

  notify (method, params) {
    if (typeof method !== 'string') throw new TypeError('method must be a string')
    const text = params === undefined ? undefined : JSON.stringify(params)
    translatedSync(() => this.#native.notify(method, text))
  }

  elicitationComplete (elicitationId) {
    if (typeof elicitationId !== 'string') throw new TypeError('elicitationId must be a string')
    translatedSync(() => this.#native.elicitationComplete(elicitationId))
  }
}

module.exports = { Context, InputRequired, inputRequired, elicit, elicitUrl, createMessage, listRoots }
