'use strict'
// The libmcp package: an MCP server and client on a native engine (see README.md). Exports are
// assigned one by one so that ESM `import { Server } from 'libmcp'` sees them as named exports.

// First, so that a missing addon fails with lib/native.js's error rather than napi's loader's.
const native = require('./native')
const server = require('./server')
const client = require('./client')
const errors = require('./errors')
const context = require('./context')
const engineLog = require('./engine_log')

/** The version of the package and of its native engine (one number for all of libmcp). */
exports.version = native.engineVersion()
exports.setEngineLog = engineLog.setEngineLog
exports.Server = server.Server
exports.Client = client.Client
exports.Subscription = client.Subscription
exports.Context = context.Context
exports.InputRequired = context.InputRequired
exports.inputRequired = context.inputRequired
exports.elicit = context.elicit
exports.elicitUrl = context.elicitUrl
exports.createMessage = context.createMessage
exports.listRoots = context.listRoots
exports.ErrorCode = errors.ErrorCode
exports.McpError = errors.McpError
exports.TransportError = errors.TransportError
exports.TimeoutError = errors.TimeoutError
exports.CancelledError = errors.CancelledError
exports.InvalidArgumentError = errors.InvalidArgumentError
exports.NoSessionError = errors.NoSessionError
exports.InvalidTokenError = errors.InvalidTokenError
