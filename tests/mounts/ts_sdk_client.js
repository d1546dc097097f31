'use strict'
// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.x, from bindings-node's dev
// dependencies; it speaks the legacy era) against an everything-server mounted in a web
// application: initialize, tools with a progress stream (SSE), a resource, a prompt, and the
// session's DELETE on close. Usage: node tests/mounts/ts_sdk_client.js URL [SERVER-NAME]
// (SERVER-NAME: what the server reports as its name; the Rust everything-server's by default).
// Exits 0 when every answer is the fixture's, 1 with the first difference otherwise.
const path = require('node:path')
const assert = require('node:assert/strict')
const { createRequire } = require('node:module')

const sdk = createRequire(path.join(__dirname, '..', '..', 'bindings-node', 'package.json'))
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = sdk('@modelcontextprotocol/sdk/client/streamableHttp.js')

async function main (url, name = 'libmcp-everything-server') {
  const client = new Client({ name: 'ts-sdk-mount-check', version: '1' }, { capabilities: {} })
  const transport = new StreamableHTTPClientTransport(new URL(url))
  await client.connect(transport)
  try {
    assert.equal(client.getServerVersion().name, name)
    assert.match(transport.sessionId, /^[0-9a-f]{64}$/)
    const { tools } = await client.listTools()
    for (const name of ['test_simple_text', 'test_tool_with_progress']) {
      assert.ok(tools.some((t) => t.name === name), `tools/list lacks ${name}`)
    }
    const simple = await client.callTool({ name: 'test_simple_text', arguments: {} })
    assert.equal(simple.content[0].type, 'text')
    const progress = []
    const streamed = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress)
    })
    assert.equal(streamed.isError, undefined)
    assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`)
    const read = await client.readResource({ uri: 'test://static-text' })
    assert.equal(read.contents[0].uri, 'test://static-text')
    const prompt = await client.getPrompt({ name: 'test_simple_prompt', arguments: {} })
    assert.ok(prompt.messages.length > 0)
    await transport.terminateSession()
  } finally {
    await client.close()
  }
  console.log(`ok   the TypeScript SDK client against ${url}`)
}

main(process.argv[2], process.argv[3]).catch((e) => {
  console.error(`FAIL the TypeScript SDK client against ${process.argv[2]}: ${e.stack || e}`)
  process.exit(1)
})
