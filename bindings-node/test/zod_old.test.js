'use strict'
// Zod 3 releases before 3.25 (3.23 and 3.24, which have no `zod/v3` subpath; 3.23 has no Standard
// Schema interface either) as an application that installed one gives its schemas to libmcp/sdk's
// McpServer: the same server made with each, and with Zod 3.25's `zod/v3` (the reference), is
// driven by the SDK's client, and everything the client sees must be the same. The old releases
// are installed by scripts/test.d/41-node.sh into `target/zod-old/VERSION` (`LIBMCP_ZOD_OLD`), so
// each is a copy of Zod apart from the ones this package resolves, as in an application's tree.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { McpServer, InMemoryTransport } = require('libmcp/sdk')

const ZOD_OLD = process.env.LIBMCP_ZOD_OLD ?? path.join(__dirname, '..', '..', 'target', 'zod-old')
const OLD = ['3.23.8', '3.24.4']

/** Zod `version` as installed in its own tree under ZOD_OLD. */
function oldZod (version) {
  const root = path.join(ZOD_OLD, version)
  let installed
  try {
    installed = require(require.resolve('zod/package.json', { paths: [root] }))
  } catch (e) {
    throw new Error(`zod ${version} is not installed under ${root} (scripts/test.d/41-node.sh installs it): ${e.message}`)
  }
  assert.equal(installed.version, version)
  // The pre-3.25 path: no `zod/v3` to load from the application's tree.
  assert.throws(() => require.resolve('zod/v3', { paths: [root] }), { code: /^ERR_PACKAGE_PATH_NOT_EXPORTED$|^MODULE_NOT_FOUND$/ })
  return require(require.resolve('zod', { paths: [root] }))
}

/** The fixture server, its schemas made with `z`. */
function makeServer (z) {
  const server = new McpServer({ name: 'zod-old', version: '1' })
  const echo = (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] })
  server.registerTool('shape', {
    inputSchema: { zeta: z.string().describe('last letter'), alpha: z.number().int().default(7), middle: z.boolean().optional() },
  }, echo)
  server.registerTool('coerce', { inputSchema: z.object({ n: z.coerce.number(), when: z.string().transform((s) => s.toUpperCase()) }) }, echo)
  server.registerTool('refine', { inputSchema: z.object({ lo: z.number(), hi: z.number() }).refine((v) => v.lo < v.hi, { message: 'lo must be below hi' }) }, echo)
  server.registerTool('union', { inputSchema: { v: z.union([z.string(), z.number()]), list: z.array(z.string()).optional() } }, echo)
  server.registerTool('empty', { inputSchema: {} }, (args) => ({ content: [{ type: 'text', text: `keys:${Object.keys(args).length}` }] }))
  server.registerTool('async_refine', { inputSchema: { name: z.string().refine(async (s) => s !== 'taken', { message: 'name taken' }) } }, echo)
  server.registerTool('out', {
    inputSchema: { mode: z.enum(['good', 'bad', 'none']) },
    outputSchema: { total: z.number(), label: z.string() },
  }, ({ mode }) => {
    if (mode === 'none') return { content: [{ type: 'text', text: 'no structure' }] }
    const structuredContent = mode === 'good' ? { total: 3, label: 'ok' } : { total: 'three', label: 'ok' }
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent }
  })
  server.registerPrompt('greet', { argsSchema: { who: z.string().describe('whom to greet'), tone: z.enum(['warm', 'cold']).optional() } },
    ({ who, tone }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `${tone ?? 'plain'} hello ${who}` } }] }))
  return server
}

const CALLS = [
  ['shape', { zeta: 'z' }], ['shape', { zeta: 'z', alpha: 2, middle: true, extra: 1 }], ['shape', { zeta: 5, alpha: 1.5 }],
  ['coerce', { n: '42', when: 'now' }], ['refine', { lo: 5, hi: 1 }], ['refine', { lo: 1, hi: 5 }],
  ['union', { v: 3 }], ['union', { v: 'x', list: ['a'] }], ['union', { v: true }], ['empty', { anything: 1 }],
  ['async_refine', { name: 'free' }], ['async_refine', { name: 'taken' }],
  ['out', { mode: 'good' }], ['out', { mode: 'bad' }], ['out', { mode: 'none' }],
]

/** Everything the SDK's client sees of the fixture made with `z`. */
async function transcript (z) {
  const server = makeServer(z)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'zod-old-test', version: '1' })
  await client.connect(clientSide)
  try {
    const out = { tools: (await client.listTools()).tools, prompts: (await client.listPrompts()).prompts, calls: [] }
    for (const [name, args] of CALLS) out.calls.push(await client.callTool({ name, arguments: args }))
    for (const args of [{ who: 'Ada', tone: 'warm' }, { who: 'Ada', tone: 'hot' }]) {
      out.calls.push(await client.getPrompt({ name: 'greet', arguments: args }).catch((e) => ({ error: e.code, message: e.message })))
    }
    return out
  } finally {
    await client.close()
    await server.close()
  }
}

test('Zod 3.23 and 3.24 schemas are handled as Zod 3.25\'s zod/v3', async (t) => {
  const want = await transcript(require('zod3/v3'))
  // The reference itself: Zod's defaults, transforms and failures, and zod-to-json-schema's listing.
  assert.equal(want.calls[0].content[0].text, '{"zeta":"z","alpha":7}')
  assert.equal(want.calls[3].content[0].text, '{"n":42,"when":"NOW"}')
  assert.equal(want.calls[4].content[0].text, 'MCP error -32602: Input validation error: Invalid arguments for tool refine: lo must be below hi')
  assert.deepEqual(want.tools[0].inputSchema.required, ['zeta'])
  assert.equal(want.tools[0].inputSchema.additionalProperties, false)
  assert.deepEqual(want.calls.at(-1).error, -32602)
  for (const version of OLD) {
    await t.test(version, async () => {
      const z = oldZod(version)
      assert.equal(z.string()._zod, undefined, 'a Zod 3 schema')
      assert.equal(typeof z.string()['~standard'], version.startsWith('3.23') ? 'undefined' : 'object')
      assert.deepEqual(await transcript(z), want)
    })
  }
})
