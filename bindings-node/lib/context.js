'use strict'
// What a handler receives besides its arguments: the request's context, progress and logging, an
// AbortSignal, and the answers to earlier input requests (MRTR). Everything here reads or calls
// the addon's NativeRequest (bindings-node/src/request.rs).

const { translatedSync } = require('./errors')

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

/** The context of one request. */
class Context {
  #req
  #signal
  constructor (req) {
    this.#req = req
    const c = JSON.parse(req.context())
    /** The JSON-RPC id. */
    this.requestId = c.id
    /** The method (`tools/call`, `resources/read`, ...). */
    this.method = c.method
    /** The request's params, `_meta` included. */
    this.params = c.params
    /** `params._meta`, if any. */
    this.meta = c.params && c.params._meta
    /** The protocol version this request is served under. */
    this.protocolVersion = c.protocolVersion
    /** `'modern'` (2026-07-28) or `'legacy'`. */
    this.era = c.era
    /** The client's capabilities (this request's, or the session's). */
    this.clientCapabilities = c.clientCapabilities
    /** The client's implementation object, if known. */
    this.clientInfo = c.clientInfo
    /** How many input rounds came before this call (0 on the first). */
    this.round = c.round
    /** The verified state attached to the last `inputRequired` answer. */
    this.requestState = c.requestState
    /** The answers to earlier input requests, by name. */
    this.inputResponses = c.inputResponses || {}
    /** Variables a resource template matched. */
    this.templateVars = c.templateVars
    /** The verified access token's facts (HTTP with OAuth), if any. */
    this.auth = c.auth
  }

  /** The answer to the input request named `key`, if the client gave it. */
  inputResponse (key) {
    return this.inputResponses[key]
  }

  /** Aborts when the client cancels the request. */
  get signal () {
    if (!this.#signal) {
      const controller = new AbortController()
      this.#signal = controller.signal
      if (this.#req.cancelled) controller.abort()
      else this.#req.onCancel(() => controller.abort())
    }
    return this.#signal
  }

  /** Whether the client declared the capability at this path, e.g. `hasClientCapability('elicitation',
   * 'url')` (the engine's rule: a bare `elicitation: {}` means form mode). */
  hasClientCapability (...path) {
    if (!path.every((p) => typeof p === 'string')) throw new TypeError('capability path must be strings')
    return this.#req.hasClientCapability(path)
  }

  /** Closes the response stream while the request keeps running (SEP-1699 polling on resumable
   * legacy HTTP sessions); `false` where the transport cannot resume (stdio, modern requests). */
  closeStream () {
    return this.#req.closeStream()
  }

  /** Sends `notifications/progress` if the client asked for progress; `false` if not sent
   * (no progress token, or a value that does not increase). */
  progress (progress, total, message) {
    if (typeof progress !== 'number') throw new TypeError('progress must be a number')
    return this.#req.progress(progress, total ?? undefined, message ?? undefined)
  }

  /** Sends `notifications/message` if the client asked for this level. */
  log (level, data, logger) {
    if (!LEVELS.has(level)) throw new TypeError(`unknown log level ${JSON.stringify(level)}`)
    return translatedSync(() => this.#req.log(level, logger ?? undefined, JSON.stringify(data ?? null)))
  }
}

module.exports = { Context, InputRequired, inputRequired, elicit, elicitUrl, createMessage, listRoots }
