'use strict'
// The error classes of the package. The addon encodes engine errors as `libmcp:{json}` messages
// (bindings-node/src/error.rs); `fromNative` turns those into these classes.

const MARK = 'libmcp:'

/** JSON-RPC error codes used by MCP (the spec's schema.ts, and the 2026-07-28 additions). */
const ErrorCode = Object.freeze({
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  UrlElicitationRequired: -32042,
})

/** Any error of this package. `kind` names where it came from; `code` and `data` are the
 * JSON-RPC error's when the peer answered with one. Made as `new McpError(message, {code, data})`,
 * or in the official TypeScript SDK's order, `new McpError(code, message, data)`: then, as there,
 * its message is `MCP error CODE: MESSAGE` (what a handler that throws it answers with). */
class McpError extends Error {
  constructor (message, options = {}, sdkData) {
    if (typeof message === 'number') {
      const code = message
      super(`MCP error ${code}: ${options}`)
      this.name = 'McpError'
      this.kind = 'rpc'
      this.code = code
      if (sdkData !== undefined) this.data = sdkData
      return
    }
    const { code, data, kind = 'rpc' } = options
    super(message)
    this.name = 'McpError'
    this.kind = kind
    if (code !== undefined) this.code = code
    if (data !== undefined) this.data = data
  }
}

/** Moving bytes failed, or the connection closed. */
class TransportError extends McpError {
  constructor (message, opts = {}) {
    super(message, { kind: 'transport', ...opts })
    this.name = 'TransportError'
  }
}

/** No answer within the timeout. */
class TimeoutError extends McpError {
  constructor (message, opts = {}) {
    super(message, { kind: 'timeout', ...opts })
    this.name = 'TimeoutError'
  }
}

/** The call was cancelled (an AbortSignal fired). */
class CancelledError extends McpError {
  constructor (message = 'request cancelled', opts = {}) {
    super(message, { kind: 'cancelled', ...opts })
    this.name = 'CancelledError'
  }
}

/** A value given to the API is invalid: a bad definition, bad options, bad arguments. */
class InvalidArgumentError extends McpError {
  constructor (message, opts = {}) {
    super(message, { kind: 'invalidArgument', ...opts })
    this.name = 'InvalidArgumentError'
  }
}

/** The request belongs to no session (`ctx.sessionNotifier()`): a 2026-07-28 request (that
 * revision has no sessions), or a legacy request served without one. */
class NoSessionError extends McpError {
  constructor (message, opts = {}) {
    super(message, { kind: 'noSession', ...opts })
    this.name = 'NoSessionError'
  }
}

/** Thrown by an HTTP server's token verifier (`serveHttp({auth: {verifyToken}})`) for a token it
 * refuses: the client gets 401 `invalid_token` with this message as `error_description`. Any other
 * throw means the verifier could not decide, answered 503. */
class InvalidTokenError extends Error {
  constructor (message = 'the token was refused') {
    super(message)
    this.name = 'InvalidTokenError'
  }
}

/** The -32021 error for a request that lacks the client capabilities `required` (e.g.
 * `{sampling: {}}`), as the engine shapes it. */
McpError.missingCapability = function missingCapability (required) {
  const e = JSON.parse(require('../index.js').missingCapabilityError(JSON.stringify(required)))
  return new McpError(e.message, { code: e.code, data: e.data })
}

const byKind = {
  transport: TransportError,
  closed: TransportError,
  timeout: TimeoutError,
  cancelled: CancelledError,
  invalidArgument: InvalidArgumentError,
  noSession: NoSessionError,
}

/** The package error for an error thrown by the addon (other errors unchanged). */
function fromNative (e) {
  if (!(e instanceof Error) || typeof e.message !== 'string' || !e.message.startsWith(MARK)) return e
  let body
  try {
    body = JSON.parse(e.message.slice(MARK.length))
  } catch {
    return e
  }
  const Cls = byKind[body.kind] || McpError
  const err = new Cls(body.message, { kind: body.kind, code: body.code, data: body.data })
  // An OS error keeps Node's names: `code` ('EADDRINUSE'), `errno` (negative, as libuv's).
  if (body.os) {
    err.code = body.os.code
    err.errno = body.os.errno
  }
  return err
}

/** Runs `f` (sync or async), rethrowing addon errors as package errors; an OS error gets
 * `syscall` (what Node names the failed call: `listen`, `connect`, `spawn`) when given. */
async function translated (f, syscall) {
  try {
    return await f()
  } catch (e) {
    const err = fromNative(e)
    if (syscall !== undefined && err.errno !== undefined) err.syscall = syscall
    throw err
  }
}

/** `f()` for a synchronous addon call, rethrowing addon errors as package errors. */
function translatedSync (f) {
  try {
    return f()
  } catch (e) {
    throw fromNative(e)
  }
}

module.exports = {
  ErrorCode,
  McpError,
  TransportError,
  TimeoutError,
  CancelledError,
  InvalidArgumentError,
  NoSessionError,
  InvalidTokenError,
  fromNative,
  translated,
  translatedSync,
}
