'use strict'
// The engine's own diagnostics (a handler that ran past `handlerTimeoutMs`, a result the engine
// refused, a request the HTTP endpoint refused, Redis trouble, a child server's stderr lines) for
// the application's logger. The package prints nothing itself: without a listener they are dropped
// in the engine, and with one, events below its level are dropped there too (nothing crosses to JS
// for them). One listener per process, as the engine's diagnostics are the process's
// (src/engine_log.rs).

const native = require('./native')
const { InvalidArgumentError } = require('./errors')

const LEVELS = ['debug', 'info', 'warn', 'error']

/**
 * Sends the engine's diagnostics of severity `options.level` ('debug', 'info', 'warn' (the
 * default) or 'error') or more to `listener(entry)`, called on the JS thread soon after the event
 * with `{level, target, message, fields}`: `target` is the engine module that emitted it
 * (`libmcp::server::deadline`, `libmcp::http`, `libmcp::child_stderr`, ...), `fields` its other
 * fields (`{method: 'tools/call'}`). `setEngineLog(null)` stops. A throw from the listener is an
 * uncaught exception, as one from an event listener is.
 */
function setEngineLog (listener, options = {}) {
  if (listener !== null && listener !== undefined && typeof listener !== 'function') {
    throw new TypeError(`setEngineLog: listener must be a function or null, got ${typeof listener}`)
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`setEngineLog: options must be an object, got ${options === null ? 'null' : typeof options}`)
  }
  const level = options.level === undefined ? 'warn' : options.level
  if (typeof level !== 'string') throw new TypeError(`setEngineLog: level must be a string, got ${typeof level}`)
  if (!LEVELS.includes(level)) {
    throw new InvalidArgumentError(`setEngineLog: level must be one of ${LEVELS.join(', ')}, got ${JSON.stringify(level)}`)
  }
  const deliver = typeof listener === 'function' ? (text) => listener(JSON.parse(text)) : null
  if (!native.setEngineLog(level, deliver)) {
    throw new Error('setEngineLog: this process has another tracing subscriber, which gets the engine\'s events')
  }
}

module.exports = { setEngineLog, LEVELS }
