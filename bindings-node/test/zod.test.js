'use strict'
// Zod schemas as the official TypeScript SDK's McpServer takes them, side by side for each Zod the
// package meets: Zod 4 (`zod`), and Zod 3.25 (`zod3`, an alias of zod@3.25) through its `zod/v3`
// and `zod/v4` subpaths. Zod is the one gate: defaults, coercion, transforms, refinements,
// stripped keys reach the handler as Zod gives them; failures are the SDK's tool errors; the JSON
// Schema listed is Zod's own; output schemas are checked too.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Server, Client } = require('..')
const { MODERN, LEGACY } = require('./helpers')

const ZODS = [
  ['zod 4', require('zod'), 4],
  ['zod 3.25, zod/v3', require('zod3/v3'), 3],
  ['zod 3.25, zod/v4', require('zod3/v4'), 4],
  ['zod 3.25, top level', require('zod3'), 3],
]

/** The text of a tool result's first block. */
const text = (r) => r.content[0].text

function makeServer (z) {
  const server = new Server({ name: 'zod-fixture', version: '1' })
  const echo = (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] })
  server.tool('shape', {
    inputSchema: {
      zeta: z.string().describe('last letter'),
      alpha: z.number().int().default(7),
      middle: z.boolean().optional(),
    },
  }, echo)
  server.tool('coerce', { inputSchema: z.object({ n: z.coerce.number(), when: z.string().transform((s) => s.toUpperCase()) }) }, echo)
  server.tool('refine', {
    inputSchema: z.object({ lo: z.number(), hi: z.number() }).refine((v) => v.lo < v.hi, { message: 'lo must be below hi' }),
  }, echo)
  server.tool('union', { inputSchema: { v: z.union([z.string(), z.number()]), list: z.array(z.string()).optional() } }, echo)
  server.tool('empty', { inputSchema: {} }, (args) => ({ content: [{ type: 'text', text: `keys:${Object.keys(args).length}` }] }))
  server.tool('async_refine', {
    inputSchema: { name: z.string().refine(async (s) => s !== 'taken', { message: 'name taken' }) },
  }, echo)
  server.tool('out', {
    inputSchema: { mode: z.enum(['good', 'bad', 'none', 'error']) },
    outputSchema: { total: z.number(), label: z.string() },
  }, ({ mode }) => {
    if (mode === 'none') return { content: [{ type: 'text', text: 'no structure' }] }
    if (mode === 'error') return { content: [{ type: 'text', text: 'failed' }], isError: true }
    const structuredContent = mode === 'good' ? { total: 3, label: 'ok' } : { total: 'three', label: 'ok' }
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent }
  })
  server.prompt('greet', {
    argsSchema: { who: z.string().describe('whom to greet'), tone: z.enum(['warm', 'cold']).optional() },
  }, ({ who, tone }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `${tone ?? 'plain'} hello ${who}` } }] }))
  return server
}

for (const [label, z, major] of ZODS) {
  for (const protocolVersion of [MODERN, LEGACY]) {
    test(`${label} schemas, ${protocolVersion}`, async (t) => {
      const server = makeServer(z)
      const http = await server.serveHttp({ port: 0 })
      const client = await Client.connectHttp(http.url, { protocolVersion })
      t.after(async () => {
        await client.close()
        await http.close()
      })
      const { tools } = await client.listTools()
      const byName = Object.fromEntries(tools.map((x) => [x.name, x]))

      await t.test('listed schemas are zod\'s, input side', () => {
        const s = byName.shape.inputSchema
        assert.equal(s.type, 'object')
        // The engine lists object keys sorted (see README.md, differences from the SDK).
        assert.deepEqual(Object.keys(s.properties).sort(), ['alpha', 'middle', 'zeta'])
        assert.equal(s.properties.zeta.description, 'last letter')
        assert.deepEqual(s.required, ['zeta'], 'a default or optional field is not required on the input side')
        assert.equal(s.properties.alpha.default, 7)
        assert.deepEqual(byName.empty.inputSchema.properties, {})
        assert.equal(byName.empty.inputSchema.type, 'object')
        assert.deepEqual(byName.out.outputSchema.required, ['total', 'label'])
        // Zod 3's converter (zod-to-json-schema) closes objects; Zod 4's input side leaves them open.
        if (major === 3) assert.equal(s.additionalProperties, false)
        else assert.equal(s.additionalProperties, undefined)
      })

      await t.test('defaults, optional and stripped keys', async () => {
        assert.equal(text(await client.callTool('shape', { zeta: 'z' })), '{"zeta":"z","alpha":7}')
        assert.equal(text(await client.callTool('shape', { zeta: 'z', alpha: 2, middle: true, extra: 1 })), '{"zeta":"z","alpha":2,"middle":true}')
        assert.equal(text(await client.callTool('empty', { anything: 1 })), 'keys:0')
      })

      await t.test('coercion and transforms', async () => {
        assert.equal(text(await client.callTool('coerce', { n: '42', when: 'now' })), '{"n":42,"when":"NOW"}')
      })

      await t.test('unions', async () => {
        assert.equal(text(await client.callTool('union', { v: 3 })), '{"v":3}')
        assert.equal(text(await client.callTool('union', { v: 'x', list: ['a'] })), '{"v":"x","list":["a"]}')
        const bad = await client.callTool('union', { v: true })
        assert.equal(bad.isError, true)
        assert.match(text(bad), /^MCP error -32602: Input validation error: Invalid arguments for tool union: .* at v$/s)
      })

      await t.test('failures read as the SDK writes them', async () => {
        const r = await client.callTool('shape', { zeta: 5, alpha: 1.5 })
        assert.equal(r.isError, true)
        const lines = text(r).split('\n')
        assert.match(lines[0], /^MCP error -32602: Input validation error: Invalid arguments for tool shape: .+ at zeta$/)
        assert.match(lines[1], / at alpha$/)
        const refine = await client.callTool('refine', { lo: 5, hi: 1 })
        assert.equal(refine.isError, true)
        assert.equal(text(refine), 'MCP error -32602: Input validation error: Invalid arguments for tool refine: lo must be below hi')
        assert.equal(text(await client.callTool('refine', { lo: 1, hi: 5 })), '{"lo":1,"hi":5}')
      })

      await t.test('async refinements', async () => {
        assert.equal(text(await client.callTool('async_refine', { name: 'free' })), '{"name":"free"}')
        const r = await client.callTool('async_refine', { name: 'taken' })
        assert.equal(r.isError, true)
        assert.match(text(r), /name taken at name$/)
      })

      await t.test('output schema', async () => {
        assert.deepEqual((await client.callTool('out', { mode: 'good' })).structuredContent, { total: 3, label: 'ok' })
        const bad = await client.callTool('out', { mode: 'bad' })
        assert.equal(bad.isError, true)
        assert.match(text(bad), /^MCP error -32602: Output validation error: Invalid structured content for tool out: .+ at total$/)
        const none = await client.callTool('out', { mode: 'none' })
        assert.equal(text(none), 'MCP error -32602: Output validation error: Tool out has an output schema but no structured content was provided')
        const error = await client.callTool('out', { mode: 'error' })
        assert.deepEqual([error.isError, text(error)], [true, 'failed'], 'a tool error is not checked')
      })

      await t.test('prompt argsSchema', async () => {
        const { prompts } = await client.listPrompts()
        assert.deepEqual(prompts[0].arguments, [
          { name: 'who', description: 'whom to greet', required: true },
          { name: 'tone', required: false },
        ])
        const r = await client.getPrompt('greet', { who: 'Ada', tone: 'warm' })
        assert.equal(r.messages[0].content.text, 'warm hello Ada')
        await assert.rejects(client.getPrompt('greet', { who: 'Ada', tone: 'hot' }), (e) => {
          assert.equal(e.code, -32602)
          assert.match(e.message, /^MCP error -32602: Invalid arguments for prompt greet: .+ at tone$/)
          return true
        })
      })
    })
  }
}

test('a raw shape mixing zod 3 and zod 4 is refused', () => {
  const server = new Server({ name: 'mixed', version: '1' })
  assert.throws(() => server.tool('mixed', { inputSchema: { a: require('zod').string(), b: require('zod3').string() } }, () => 'x'),
    { name: 'TypeError', message: 'inputSchema mixes Zod 3 and Zod 4 schemas' })
})

test('a JSON Schema tool keeps the engine\'s check', async () => {
  const server = new Server({ name: 'json', version: '1' })
  server.tool('n', { inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }, ({ n }) => String(n))
  const http = await server.serveHttp({ port: 0 })
  const client = await Client.connectHttp(http.url)
  try {
    const r = await client.callTool('n', { n: 'x' })
    assert.equal(r.isError, true)
    assert.match(text(r), /^Input validation error: /)
  } finally {
    await client.close()
    await http.close()
  }
})
