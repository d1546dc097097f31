'use strict'
// Completion as the official TypeScript SDK offers it: `ResourceTemplate` (a URI template with
// `list` and per-variable `complete` callbacks) and `completable(schema, complete)` for prompt
// arguments; `completionResult` answers `completion/complete` from them.

/** The key the SDK marks a completable schema with (`Symbol.for`, so a schema marked by the SDK's
 * own `completable()` is recognised too). */
const COMPLETABLE = Symbol.for('mcp.completable')

/** Marks Zod schema `schema` so that `complete(value, context)` (returning the suggested values,
 * sync or async) completes the prompt argument it describes; returns `schema`. */
function completable (schema, complete) {
  if (typeof complete !== 'function') throw new TypeError('completable: complete must be a function')
  Object.defineProperty(schema, COMPLETABLE, { value: { complete }, enumerable: false, writable: false, configurable: false })
  return schema
}

/** The completer of a schema marked by `completable`, if any. */
function completerOf (schema) {
  if (schema === null || typeof schema !== 'object') return undefined
  const mark = schema[COMPLETABLE]
  return mark && typeof mark.complete === 'function' ? mark.complete : undefined
}

/** A resource template as the SDK's `ResourceTemplate`: `uriTemplate` (RFC 6570 text) and the
 * callbacks `{list, complete: {variable: complete}}`; `list` must be given, `undefined` included,
 * as in the SDK. */
class ResourceTemplate {
  #uriTemplate
  #callbacks
  constructor (uriTemplate, callbacks) {
    if (typeof uriTemplate !== 'string' || uriTemplate === '') throw new TypeError('ResourceTemplate: uriTemplate must be a non-empty string')
    if (callbacks === null || typeof callbacks !== 'object' || !('list' in callbacks)) {
      throw new TypeError('ResourceTemplate: callbacks must be an object with list (a function, or undefined)')
    }
    if (callbacks.list !== undefined && typeof callbacks.list !== 'function') throw new TypeError('ResourceTemplate: list must be a function or undefined')
    for (const [name, f] of Object.entries(callbacks.complete ?? {})) {
      if (typeof f !== 'function') throw new TypeError(`ResourceTemplate: complete.${name} must be a function`)
    }
    this.#uriTemplate = uriTemplate
    this.#callbacks = callbacks
  }

  /** The URI template; its `toString()` is the template text, as the SDK's UriTemplate. */
  get uriTemplate () { return { toString: () => this.#uriTemplate } }
  /** The template text. */
  get template () { return this.#uriTemplate }
  /** The `list` callback, if one was given. */
  get listCallback () { return this.#callbacks.list }
  /** Whether any variable has a `complete` callback. */
  get hasCompleters () { return Object.keys(this.#callbacks.complete ?? {}).length > 0 }
  /** The callback completing `variable`, if one was given. */
  completeCallback (variable) {
    return this.#callbacks.complete?.[variable]
  }
}

/** The CompleteResult of suggestions: the first hundred, with the total. */
function completionResult (values) {
  if (!Array.isArray(values)) throw new TypeError(`a completion callback must return an array of strings, got ${values === null ? 'null' : typeof values}`)
  return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } }
}

const NONE = Object.freeze({ completion: Object.freeze({ values: Object.freeze([]), hasMore: false }) })

module.exports = { completable, completerOf, ResourceTemplate, completionResult, NONE }
