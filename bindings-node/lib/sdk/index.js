'use strict'
// `libmcp/sdk`: the names a server or client written for the official TypeScript SDK (1.x) imports, on this
// package's engine, so that a port changes its import lines only (see README.md for what differs).

const { McpServer } = require('./mcp_server')
const { Server } = require('./low_level_server')
const { ResourceTemplate, completable } = require('./completions')
const { StdioServerTransport, StreamableHTTPServerTransport, WebStandardStreamableHTTPServerTransport } = require('./transports')
const { InMemoryTransport } = require('./in_memory')
const { SSEServerTransport } = require('./sse_transport')
const { Client, StdioClientTransport, StreamableHTTPClientTransport } = require('./client')
const { McpError, ErrorCode } = require('../errors')
const { InMemoryTaskStore, InMemoryTaskMessageQueue, isTerminal } = require('./task_store')

exports.McpServer = McpServer
exports.Server = Server
exports.ResourceTemplate = ResourceTemplate
exports.completable = completable
exports.StdioServerTransport = StdioServerTransport
exports.StreamableHTTPServerTransport = StreamableHTTPServerTransport
exports.WebStandardStreamableHTTPServerTransport = WebStandardStreamableHTTPServerTransport
exports.InMemoryTransport = InMemoryTransport
exports.SSEServerTransport = SSEServerTransport
exports.Client = Client
exports.StdioClientTransport = StdioClientTransport
exports.StreamableHTTPClientTransport = StreamableHTTPClientTransport
exports.McpError = McpError
exports.ErrorCode = ErrorCode
exports.InMemoryTaskStore = InMemoryTaskStore
exports.InMemoryTaskMessageQueue = InMemoryTaskMessageQueue
exports.isTerminal = isTerminal
