'use strict'
// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.x, legacy era) against libmcp
// Node servers (the fixture over stdio, an in-process server over Streamable HTTP and HTTP+SSE),
// and the libmcp Node client against an official SDK server over stdio, Streamable HTTP and
// HTTP+SSE.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Client: SdkClient } = require('@modelcontextprotocol/sdk/client/index.js')
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { ElicitRequestSchema, McpError: SdkError } = require('@modelcontextprotocol/sdk/types.js')
const { Server, inputRequired, elicit } = require('..')
const { SERVER } = require('./helpers')

function sdkClient () {
  const c = new SdkClient({ name: 'sdk', version: '1' }, { capabilities: { elicitation: {} } })
  c.setRequestHandler(ElicitRequestSchema, async (req) => ({ action: 'accept', content: { name: `SDK (${req.params.message})` } }))
  return c
}

async function exercise (c) {
  assert.equal(c.getServerVersion().name, c.getServerVersion().name)
  const { tools } = await c.listTools()
  assert.ok(tools.some((t) => t.name === 'echo'))
  const echo = await c.callTool({ name: 'echo', arguments: { text: 'sdk' } })
  assert.deepEqual(echo.content, [{ type: 'text', text: 'sdk' }])
  const greet = await c.callTool({ name: 'greet', arguments: {} })
  assert.deepEqual(greet.content, [{ type: 'text', text: 'Hello, SDK (What is your name?)!' }])
  const thrown = await c.callTool({ name: 'throws', arguments: {} })
  assert.equal(thrown.isError, true)
  await assert.rejects(c.callTool({ name: 'rpc_error', arguments: {} }), (e) => e instanceof SdkError && e.code === -32602)
}

test('the official SDK client against the Node server over stdio', async () => {
  const c = sdkClient()
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER] }))
  try {
    assert.deepEqual(c.getServerVersion(), { name: 'node-fixture', version: '1.2.3' })
    assert.equal(c.getInstructions(), 'fixture instructions')
    await exercise(c)
    const r = await c.readResource({ uri: 'test://items/5' })
    assert.deepEqual(r.contents, [{ uri: 'test://items/5', text: 'item 5' }])
    const p = await c.getPrompt({ name: 'hello', arguments: { who: 'SDK' } })
    assert.equal(p.messages[0].content.text, 'Hello SDK')
    const done = await c.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'who', value: 'al' } })
    assert.deepEqual(done.completion.values, ['alpha'])
  } finally {
    await c.close()
  }
})

test('the official SDK client against a Node server over Streamable HTTP', async () => {
  const server = new Server({ name: 'http-node', version: '2' })
  server.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => text)
  server.tool('greet', {}, (_a, ctx) => ctx.inputResponse('who')
    ? `Hello, ${ctx.inputResponse('who').content.name}!`
    : inputRequired({ who: elicit('What is your name?', { type: 'object', properties: { name: { type: 'string' } } }) }))
  server.tool('throws', {}, async () => { throw new Error('nope') })
  server.tool('rpc_error', {}, () => { throw new (require('..').McpError)('bad', { code: -32602 }) })
  const http = await server.serveHttp()
  const c = sdkClient()
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL(http.url)))
    assert.deepEqual(c.getServerVersion(), { name: 'http-node', version: '2' })
    await exercise(c)
  } finally {
    await c.close()
    await server.close()
  }
})

const SDK_SERVER = require('node:path').join(__dirname, 'fixtures', 'sdk_server.js')
const onElicitation = async (params) => ({ action: 'accept', content: { name: `Ada (${params.message})` } })

async function exerciseSdkServer (client) {
  const { CancelledError } = require('..')
  // The SDK 1.x server does not know server/discover: the probe falls back to initialize.
  assert.equal(client.era, 'legacy')
  assert.deepEqual(client.serverInfo, { name: 'sdk-fixture', version: '9.9.9' })
  const { tools } = await client.listTools()
  assert.deepEqual(tools.map((t) => t.name), ['add', 'ask', 'slow'])
  assert.equal((await client.callTool('add', { a: 2, b: 40 })).content[0].text, '42')
  assert.equal((await client.callTool('ask', {})).content[0].text, 'accept: Ada (Your name?)')
  assert.equal((await client.readResource('doc://7')).contents[0].text, 'doc 7')
  assert.equal((await client.getPrompt('p', { who: 'sdk' })).messages[0].content.text, 'hi sdk')
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 100)
  await assert.rejects(client.callTool('slow', {}, { signal: controller.signal }), CancelledError)
  assert.equal((await client.callTool('add', { a: 1, b: 1 })).content[0].text, '2')
}

test('the libmcp Node client against an official SDK server over stdio', async () => {
  const { Client } = require('..')
  const client = await Client.connectStdio(process.execPath, [SDK_SERVER], { onElicitation })
  try {
    await exerciseSdkServer(client)
  } finally {
    await client.close()
  }
})

/** Runs the SDK fixture server with `flag` (`--http` or `--sse`) and calls `use(url)` with the URL
 * it listens on; stops it afterwards. */
async function withSdkHttpServer (flag, use) {
  const child = require('node:child_process').spawn(process.execPath, [SDK_SERVER, flag], { stdio: ['pipe', 'pipe', 'inherit'] })
  try {
    const url = await new Promise((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d) => {
        out += d
        const m = /^listening on (\S+)\n/.exec(out)
        if (m) resolve(m[1])
      })
      child.on('exit', (code) => reject(new Error(`the SDK server exited (${code}) before listening`)))
    })
    await use(url)
  } finally {
    child.stdin.end()
    if (child.exitCode === null) await new Promise((resolve) => child.on('exit', resolve))
  }
}

test('the libmcp Node client against an official SDK server over Streamable HTTP', async () => {
  const { Client } = require('..')
  await withSdkHttpServer('--http', async (url) => {
    const client = await Client.connectHttp(url, { onElicitation })
    try {
      await exerciseSdkServer(client)
    } finally {
      await client.close()
    }
  })
})

// A server that predates Streamable HTTP refuses the first POST; the client then falls back to
// the 2024-11-05 HTTP+SSE transport (GET the URL for an event stream whose `endpoint` event names
// where to POST), as the specification's backwards-compatibility rules say.
test('the libmcp Node client against an official SDK server over HTTP+SSE (2024-11-05)', async () => {
  const { Client } = require('..')
  await withSdkHttpServer('--sse', async (url) => {
    // The fixture serves nothing but HTTP+SSE here: every call below crosses that transport. (The
    // protocol version is whatever initialize agrees on; the SDK offers its latest over it.)
    assert.match(url, /\/sse$/)
    const client = await Client.connectHttp(url, { onElicitation })
    try {
      await exerciseSdkServer(client)
    } finally {
      await client.close()
    }
  })
})

test('the libmcp Node client against a libmcp Node server over HTTP+SSE', async () => {
  const { Client } = require('..')
  const server = new Server({ name: 'sse-both', version: '4' })
  server.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => text)
  const http = await server.serveHttp({ httpSse: true })
  try {
    const sse = http.url.replace(/\/mcp$/, '/sse')
    // The HTTP+SSE endpoint refuses a Streamable HTTP POST, so the client below takes the fallback.
    const post = await fetch(sse, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })
    assert.equal(post.status, 405)
    const client = await Client.connectHttp(sse)
    try {
      assert.equal(client.era, 'legacy')
      assert.deepEqual(client.serverInfo, { name: 'sse-both', version: '4' })
      assert.equal((await client.callTool('echo', { text: 'both ends libmcp' })).content[0].text, 'both ends libmcp')
    } finally {
      await client.close()
    }
  } finally {
    await server.close()
  }
})

test('the official SDK HTTP+SSE client (2024-11-05 transport) against serveHttp({httpSse: true})', async () => {
  const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js')
  const server = new Server({ name: 'sse-node', version: '3' })
  server.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => text)
  const http = await server.serveHttp({ httpSse: true })
  const c = sdkClient()
  try {
    await c.connect(new SSEClientTransport(new URL(http.url.replace(/\/mcp$/, '/sse'))))
    assert.deepEqual(c.getServerVersion(), { name: 'sse-node', version: '3' })
    assert.deepEqual((await c.callTool({ name: 'echo', arguments: { text: 'over sse' } })).content, [{ type: 'text', text: 'over sse' }])
  } finally {
    await c.close()
    await server.close()
  }
})
