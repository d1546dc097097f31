'use strict'
// libmcp/sdk's low-level Server as a drop-in for the official TypeScript SDK's (`server/index.js`):
// the same server code built once with the SDK's modules and once with libmcp/sdk, served over
// Streamable HTTP one transport per session, driven by the SDK's own client; every answer is
// compared. Then what libmcp checks beyond the SDK (the request and the result against the
// revision's schema) and what it refuses, each with its exact error.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const types = require('@modelcontextprotocol/sdk/types.js')
const { serveSessions } = require('./sdk_sessions')

const SDK = {
  ...require('@modelcontextprotocol/sdk/server/index.js'),
  ...require('@modelcontextprotocol/sdk/server/streamableHttp.js'),
}
const LIBMCP = require('libmcp/sdk')

/** One low-level server, written against `sdk` (the SDK's modules or libmcp/sdk). */
function build (sdk) {
  const server = new sdk.Server({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: 'low level' })
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      { name: 'ask', inputSchema: { type: 'object' } },
      { name: 'broken', inputSchema: { type: 'object' } },
    ],
  }))
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params
    if (name === 'echo') return { content: [{ type: 'text', text: `echo: ${args.text}` }] }
    if (name === 'ask') {
      const answer = await server.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      const roots = await extra.sendRequest({ method: 'roots/list' }, types.ListRootsResultSchema)
      return { content: [{ type: 'text', text: `hello ${answer.content.name}, ${roots.roots.length} roots` }] }
    }
    if (name === 'broken') return { content: 'not an array' }
    throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown tool: ${name}`)
  })
  return server
}

function serve (sdk) {
  return serveSessions(sdk, () => build(sdk))
}

async function connect (url) {
  const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} }, roots: {} } })
  client.setRequestHandler(types.ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }))
  client.setRequestHandler(types.ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///a', name: 'a' }] }))
  await client.connect(new StreamableHTTPClientTransport(url))
  return client
}

/** What the SDK's client sees of one server: every answer, or the error's code and message. */
async function session (sdk) {
  const served = await serve(sdk)
  const client = await connect(served.url)
  const seen = {
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    tools: await client.listTools(),
    echo: await client.callTool({ name: 'echo', arguments: { text: 'hi' } }),
    ask: await client.callTool({ name: 'ask', arguments: {} }),
  }
  const failure = async (p) => p.then((r) => ({ resolved: r }), (e) => ({ code: e.code, message: e.message }))
  seen.unknown = await failure(client.callTool({ name: 'nope', arguments: {} }))
  seen.broken = await failure(client.callTool({ name: 'broken', arguments: {} }))
  seen.prompts = await failure(client.request({ method: 'prompts/list', params: {} }, types.ListPromptsResultSchema))
  await client.close()
  await served.close()
  return seen
}

test('the low-level Server answers the SDK client as the SDK\'s does', async () => {
  const ours = await session(LIBMCP)
  const theirs = await session(SDK)
  assert.deepEqual(ours.tools, theirs.tools)
  assert.deepEqual(ours.echo, theirs.echo)
  assert.deepEqual(ours.ask, { content: [{ type: 'text', text: 'hello Ada, 1 roots' }] })
  assert.deepEqual(ours.ask, theirs.ask)
  assert.deepEqual(ours.unknown, theirs.unknown)
  assert.equal(ours.instructions, 'low level')
  assert.equal(ours.instructions, theirs.instructions)
  // The SDK declares what it was given; libmcp adds logging, which its engine always serves.
  assert.deepEqual(theirs.capabilities, { tools: {} })
  assert.deepEqual(ours.capabilities, { logging: {}, tools: {} })
  assert.deepEqual(ours.prompts, theirs.prompts)
  assert.deepEqual(ours.prompts, { code: -32601, message: 'MCP error -32601: Method not found' })
  // Neither sends a tools/call result that breaks the schema: the SDK's Server answers -32602 with
  // Zod's issues; libmcp's engine (which checks every method a host answers) -32603 naming the
  // path, the error of a server that failed.
  assert.equal(theirs.broken.code, -32602)
  assert.ok(theirs.broken.message.startsWith('MCP error -32602: MCP error -32602: Invalid tools/call result: '), theirs.broken.message)
  assert.deepEqual(ours.broken, {
    code: -32603,
    message: 'MCP error -32603: Internal error: the host\'s handler of tools/call answered a result that does not match CallToolResult of 2025-11-25: /content: "not an array" is not of type "array"',
  })
})

test('a request that breaks the revision\'s schema never reaches the handler', async () => {
  const served = await serve(LIBMCP)
  const client = await connect(served.url)
  const e = await client.request({ method: 'tools/call', params: { arguments: {} } }, types.CallToolResultSchema).then(() => null, (x) => x)
  assert.equal(e.code, -32602)
  assert.equal(e.message, 'MCP error -32602: Invalid params: the tools/call request does not match CallToolRequest of 2025-11-25: /params: "name" is a required property')
  await client.close()
  await served.close()
})

test('what the low-level Server refuses, each with its reason', () => {
  const server = new LIBMCP.Server({ name: 's', version: '1' }, { capabilities: { tools: {} } })
  assert.throws(() => server.setRequestHandler(types.InitializeRequestSchema, () => ({})), {
    name: 'InvalidArgumentError',
    message: 'method "initialize" cannot have a handler of its own: the specification defines it, and the engine answers it itself (a host may answer the tools, resources, prompts, completion and tasks methods)',
  })
  assert.throws(() => server.setRequestHandler(types.ListPromptsRequestSchema, () => ({ prompts: [] })), {
    name: 'InvalidArgumentError',
    message: 'answering prompts/list needs the prompts capability declared first (declare_capabilities)',
  })
  assert.throws(() => server.setNotificationHandler(types.RootsListChangedNotificationSchema, () => {}), {
    message: 'setNotificationHandler: libmcp/sdk\'s Server does not hand client notifications to handlers (notifications/roots/list_changed): the engine handles the client\'s notifications itself',
  })
  assert.throws(() => new LIBMCP.Server({ name: 's', version: '1' }, { taskStore: {} }), {
    name: 'TypeError',
    message: 'libmcp/sdk\'s Server does not take the taskStore option: answer tasks/get, tasks/result, tasks/list and tasks/cancel with setRequestHandler, or use McpServer\'s experimental.tasks',
  })
  // Owning tools/call while the engine has a tool for it is refused, whichever comes second.
  server.native.tool('echo', { inputSchema: { type: 'object' } }, () => 'x')
  assert.throws(() => server.setRequestHandler(types.CallToolRequestSchema, () => ({ content: [] })), {
    name: 'InvalidArgumentError',
    message: 'tools/call is answered by the host\'s own handler, and tool "echo" is registered, which the engine would answer tools/call for: register one or the other',
  })
  const other = new LIBMCP.Server({ name: 's', version: '1' }, { capabilities: { tools: {} } })
  other.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: [] }))
  assert.throws(() => other.native.tool('echo', { inputSchema: { type: 'object' } }, () => 'x'), {
    name: 'InvalidArgumentError',
    message: 'tools/list is answered by the host\'s own handler, and tool "echo" is registered, which the engine would answer tools/list for: register one or the other',
  })
})

test('McpServer.server is a low-level Server', () => {
  const mcp = new LIBMCP.McpServer({ name: 's', version: '1' })
  assert.ok(mcp.server instanceof LIBMCP.Server)
  assert.equal(mcp.server.native, mcp.native)
})
