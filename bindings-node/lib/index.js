'use strict'
// The libmcp package: an MCP server and client on a native engine (see README.md).

const { Server } = require('./server')
const { Client } = require('./client')
const errors = require('./errors')
const context = require('./context')

module.exports = {
  Server,
  Client,
  inputRequired: context.inputRequired,
  elicit: context.elicit,
  elicitUrl: context.elicitUrl,
  createMessage: context.createMessage,
  listRoots: context.listRoots,
  InputRequired: context.InputRequired,
  Context: context.Context,
  ErrorCode: errors.ErrorCode,
  McpError: errors.McpError,
  TransportError: errors.TransportError,
  TimeoutError: errors.TimeoutError,
  CancelledError: errors.CancelledError,
  InvalidArgumentError: errors.InvalidArgumentError,
}
