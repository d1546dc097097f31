'use strict'
// The Node server driven by the Rust `mcp` CLI in both eras, and the Node client against the Rust
// everything-server in both eras (the binaries from `cargo build -p libmcp-examples`).
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Client, McpError } = require('..')
const { BIN_DIR, LEGACY, MODERN, mcp } = require('./helpers')

const EVERYTHING = path.join(BIN_DIR, 'everything-server')
const SERVER_INFO = { name: 'node-fixture', version: '1.2.3' }

for (const [era, flag] of [['modern', ['--modern', MODERN]], ['legacy', ['--legacy', LEGACY]]]) {
  test(`the Rust mcp CLI against the Node server, ${era} era`, async () => {
    const info = await mcp([...flag, 'info'])
    assert.equal(info.code, 0, info.stderr)
    const d = JSON.parse(info.stdout)
    assert.equal(d.era, era)
    assert.deepEqual(d.serverInfo, SERVER_INFO)
    assert.equal(d.instructions, 'fixture instructions')

    const echo = JSON.parse((await mcp([...flag, 'call', 'echo', '{"text":"from rust"}'])).stdout)
    assert.deepEqual(echo.content, [{ type: 'text', text: 'from rust' }])
    assert.equal(echo.resultType, era === 'modern' ? 'complete' : undefined)

    const greet = JSON.parse((await mcp([...flag, 'call', 'greet', '--answer', 'name=Ada'])).stdout)
    assert.deepEqual(greet.content, [{ type: 'text', text: 'Hello, Ada!' }])
    const declined = JSON.parse((await mcp([...flag, 'call', 'greet', '--decline'])).stdout)
    assert.deepEqual(declined.content, [{ type: 'text', text: 'Nobody to greet' }])

    const two = await mcp([...flag, '--root', '/tmp', 'call', 'two_rounds', '--answer', 'ok=true'])
    assert.equal(JSON.parse(two.stdout).content[0].text, 'state round-2, confirmed true')

    const failed = await mcp([...flag, 'call', 'rpc_error'])
    assert.equal(failed.code, 1)
    assert.deepEqual(JSON.parse(failed.stdout).error.data, { why: 'test' })
    assert.equal(JSON.parse(failed.stdout).error.code, -32602)

    const item = JSON.parse((await mcp([...flag, 'read', 'test://items/9'])).stdout)
    assert.deepEqual(item.contents, [{ uri: 'test://items/9', text: 'item 9' }])
    const prompt = JSON.parse((await mcp([...flag, 'prompt', 'hello', '{"who":"Rust"}'])).stdout)
    assert.equal(prompt.messages[0].content.text, 'Hello Rust')
    const done = JSON.parse((await mcp([...flag, 'complete', 'hello', 'who', 'b'])).stdout)
    assert.deepEqual(done.completion.values, ['beta'])
  })

  test(`the Node client against the Rust everything-server, ${era} era`, async () => {
    const client = await Client.connectStdio(EVERYTHING, [], {
      protocolVersion: flag[1],
      onElicitation: async (params) => ({ action: 'accept', content: { response: `re: ${params.message}` } }),
      onSampling: async () => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled' } }),
      roots: [{ uri: 'file:///tmp/root', name: 'root' }],
    })
    try {
      assert.equal(client.era, era)
      const { tools } = await client.listTools()
      assert.ok(tools.some((t) => t.name === 'test_simple_text'))
      assert.deepEqual((await client.callTool('test_simple_text', {})).content, [{ type: 'text', text: 'This is a simple text response for testing.' }])
      const e = await client.callTool('test_elicitation', { message: 'hi?' })
      assert.match(e.content[0].text, /re: hi\?/)
      const s = await client.callTool('test_sampling', { prompt: 'p' })
      assert.equal(s.content[0].text, 'LLM response: sampled')
      const roots = await client.callTool('test_input_required_result_list_roots', {})
      assert.match(roots.content[0].text, /file:\/\/\/tmp\/root/)
      const err = await client.callTool('test_error_handling', {})
      assert.equal(err.isError, true)
      await assert.rejects(client.getPrompt('no_such_prompt', {}), McpError)
    } finally {
      await client.close()
    }
  })
}
