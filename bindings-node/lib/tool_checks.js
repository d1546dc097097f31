'use strict'
// The checks of a tool registered with Zod schemas, made here (the engine skips its own, see
// `Server::add_tool_validated_by_host` in core): arguments are parsed by the input schema and the
// handler gets Zod's output; a result's `structuredContent` is parsed by the output schema. A
// failure is the tool error the official TypeScript SDK's McpServer answers, with its text.

const { ErrorCode } = require('./errors')
const { InputRequired } = require('./context')
const zod = require('./zod')

function isThenable (v) {
  return v !== null && typeof v === 'object' && typeof v.then === 'function'
}

/** `f(v)`, after `v` settles when it is a promise. */
function then (v, f) {
  return isThenable(v) ? Promise.resolve(v).then(f) : f(v)
}

/** A tool error result with the text of the SDK's McpError(InvalidParams, message). */
function invalidParams (message) {
  return { content: [{ type: 'text', text: `MCP error ${ErrorCode.InvalidParams}: ${message}` }], isError: true }
}

/** Checks a handler's result against the output schema as the SDK does: a successful result with
 * `content` needs `structuredContent` that the schema parses (the result is sent as the handler
 * gave it). */
function checkOutput (name, output, result) {
  if (result === null || typeof result !== 'object' || result instanceof InputRequired) return result
  if (!('content' in result) || result.isError) return result
  if (!result.structuredContent) {
    return invalidParams(`Output validation error: Tool ${name} has an output schema but no structured content was provided`)
  }
  return then(zod.parse(output, result.structuredContent), (r) => r.issues
    ? invalidParams(`Output validation error: Invalid structured content for tool ${name}: ${zod.issuesMessage(r.issues)}`)
    : result)
}

/** The handler `(args, ctx)` of tool `name` with the Zod checks of `input` and `output` (Zod
 * schemas, either undefined) around `handler(args, ctx)`. Without either it is `handler` itself. */
function checkedTool (name, handler, input, output) {
  if (input === undefined && output === undefined) return handler
  const run = (args, ctx) => {
    const result = handler(args, ctx)
    return output === undefined ? result : then(result, (r) => checkOutput(name, output, r))
  }
  if (input === undefined) return run
  return (args, ctx) => then(zod.parse(input, args), (r) => r.issues
    ? invalidParams(`Input validation error: Invalid arguments for tool ${name}: ${zod.issuesMessage(r.issues)}`)
    : run(r.value, ctx))
}

module.exports = { checkedTool, then, isThenable }
