'use strict'
// URL elicitation as the official TypeScript SDK's server offers it: a tool that throws the SDK's
// `UrlElicitationRequiredError` (made from `@modelcontextprotocol/sdk/types.js`, another class than
// this package's McpError) answers the JSON-RPC error -32042 with its elicitations, as the SDK's
// McpServer answers it; and `server.server.createElicitationCompletionNotifier(elicitationId)`.

const { McpError, ErrorCode } = require('../errors')

/** This package's McpError for an error the SDK's classes made (`name` McpError, an integer
 * `code`) whose code is -32042 (URL elicitation required), with its message and data; else
 * undefined. */
function urlElicitationRequired (e) {
  if (e instanceof McpError || !(e instanceof Error) || e.name !== 'McpError' || e.code !== ErrorCode.UrlElicitationRequired) return undefined
  return new McpError(e.message, { code: e.code, data: e.data })
}

/** The SDK's notifier of `notifications/elicitation/complete` for `elicitationId`, made while a
 * handler runs (`run`, its request; the client's capabilities are known from it): as in the SDK,
 * it throws when the client did not declare URL elicitation. The notifier it returns sends the
 * notification to the request's legacy session whenever it is called, also after the request was
 * answered (`ctx.sessionNotifier()`: on Streamable HTTP it goes on the session's GET stream, kept
 * for a resumption when none is open); it rejects once the session has ended. A 2026-07-28 request
 * has no session: making the notifier throws `NoSessionError` there. */
function completionNotifier (run, elicitationId) {
  if (run === undefined) {
    throw new Error('createElicitationCompletionNotifier can only be called while a handler runs (the client\'s capabilities are known from its request)')
  }
  if (!run.ctx.hasClientCapability('elicitation', 'url')) {
    throw new Error('Client does not support URL elicitation (required for notifications/elicitation/complete)')
  }
  const session = run.ctx.sessionNotifier()
  return async () => session.elicitationComplete(elicitationId)
}

module.exports = { urlElicitationRequired, completionNotifier }
