'use strict'
// Params and results holding large strings, which the package hands between the engine and JS
// apart from their JSON text, on the server's side and the client's alike (lib/large_strings.js,
// src/large_strings.rs): the handler gets exactly what the client sent and the client exactly
// what the handler returned, whatever the strings hold, wherever they are, over stdio and HTTP in
// both eras.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Client, Server } = require('..')
const { LARGE, LOOK, hasLargeString, parseWithStrings } = require('../lib/large_strings')
const { LEGACY, MODERN, FIXTURES } = require('./helpers')

const SERVER = path.join(FIXTURES, 'large_server.js')
const MARKER = require('../index.js').largeStringMarker()

/** `n` characters of `pattern` repeated (cut to exactly `n` UTF-16 units). */
const fill = (pattern, n) => pattern.repeat(Math.ceil(n / pattern.length)).slice(0, n)

test('which results go the large-string way', () => {
  const big = 'x'.repeat(LARGE)
  assert.equal(hasLargeString({ content: [{ type: 'text', text: big }] }), true)
  assert.equal(hasLargeString({ content: [{ type: 'text', text: big.slice(1) }] }), false)
  assert.equal(hasLargeString({ contents: [{ uri: 'a:b', blob: big }] }), true)
  assert.equal(hasLargeString({ a: { b: { c: { d: [1, null, true, big] } } } }), true)
  // Only the first LOOK values are looked at: a large string after many small ones goes the
  // plain way (the JSON is the same either way).
  const many = Array.from({ length: LOOK }, (_, i) => `v${i}`)
  assert.equal(hasLargeString({ list: [big, ...many] }), true)
  assert.equal(hasLargeString({ list: [...many, big] }), false)
  assert.equal(hasLargeString({}), false)
  assert.equal(hasLargeString(new Uint8Array(100000)), false)
  // Inherited members are not looked at (JSON.stringify leaves them out too).
  assert.equal(hasLargeString(Object.create({ inherited: big })), false)
})

test('params parsed with their strings: only markers with an index in the list are replaced', () => {
  const text = JSON.stringify([MARKER + '0', MARKER + '1', MARKER, MARKER + 'x', MARKER + '01x', 'plain'])
  assert.deepEqual(parseWithStrings(text, ['zero', 'one']), ['zero', 'one', MARKER, MARKER + 'x', MARKER + '01x', 'plain'])
  assert.deepEqual(parseWithStrings(text, undefined), JSON.parse(text))
  assert.deepEqual(parseWithStrings(text, null), JSON.parse(text))
})

test('the addon refuses texts and string lists of the wrong type with a clear error', () => {
  const native = require('../index.js')
  // An id that names no request: the arguments are converted (and refused) before it is looked up.
  assert.equal(native.requestReply(-1, '{}', ['x', 'é😀']), false)
  assert.throws(() => native.requestReply(-1, 42), /expected a string/)
  assert.throws(() => native.requestReply(-1, '{}', 'not a list'), /expected an array of strings/)
  assert.throws(() => native.requestReply(-1, '{}', ['ok', 7]), /item 1 of an array of strings: expected a string/)
})

for (const protocolVersion of [MODERN, LEGACY]) {
  test(`large strings in results arrive unchanged (${protocolVersion})`, async (t) => {
    const client = await Client.connectStdio(process.execPath, [SERVER], { protocolVersion })
    t.after(() => client.close())

    await t.test('text that needs escapes or is not ASCII, at and around the threshold', async () => {
      const kinds = [
        'quote " backslash \\ newline \n tab \t nul \u0000 unit \u001f ',
        'é ü ß 日本語 😀 🧪 ',
        'separators \u2028 \u2029 BOM \ufeff ',
        // One byte per character in V8 but not ASCII: UTF-8 needs two bytes for some.
        'latin-1 only: café ÿ ñ \u00a0 ',
        'plain ascii ',
      ]
      for (const kind of kinds) {
        // Small texts cross inside the JSON text, the others apart from it.
        for (const n of [1, 100, LARGE - 1, LARGE, LARGE + 1, 65536]) {
          // A surrogate pair cut in half by `fill` would not be text: keep whole characters.
          let text = fill(kind, n)
          if (/[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1)
          const result = { content: [{ type: 'text', text }] }
          const got = await client.callTool('result', { result })
          assert.equal(got.content[0].text, text, `${JSON.stringify(kind)} x ${n}`)
        }
      }
    })

    await t.test('several large strings anywhere in the result, with small ones between', async () => {
      const a = fill('a"', 5000)
      const b = fill('b\\', 9000)
      const c = fill('c\n', 4096)
      const result = {
        content: [{ type: 'text', text: a }, { type: 'text', text: 'small' }, { type: 'text', text: b }],
        structuredContent: { nested: { list: ['x', c, 'y', a], n: 1, ok: true, none: null }, key: b },
      }
      const got = await client.callTool('result', { result })
      assert.deepEqual(got.content, result.content)
      assert.deepEqual(got.structuredContent, result.structuredContent)
    })

    await t.test('small strings that start with the marker stay as they were', async () => {
      const got = await client.callTool('markers', {})
      assert.equal(got.content[0].text, 'm'.repeat(10000))
      const { sent, copy } = got.structuredContent
      assert.deepEqual(copy, sent)
      assert.match(sent[2], /^\u0000libmcp-large-string:[0-9a-f]{32}:$/)
      assert.deepEqual(sent, [sent[2] + '0', sent[2] + '1', sent[2], `${sent[2]}x`])
    })

    await t.test('resource contents', async () => {
      const { contents } = await client.readResource('test://large')
      assert.equal(contents[0].text, 'r'.repeat(70000) + ' end')
    })
  })
}

test('tool results of one text item (handed over as the text alone) and their near misses', async () => {
  class Result { constructor (text) { this.content = [{ type: 'text', text }] } }
  const shapes = {
    string: () => 'just a string',
    exact: () => ({ content: [{ type: 'text', text: 'exact é 😀 ' + 'x'.repeat(70000) }] }),
    reversed: () => ({ content: [{ text: 'text first', type: 'text' }] }),
    extraKey: () => ({ content: [{ type: 'text', text: 'with isError' }], isError: false }),
    itemExtra: () => ({ content: [{ type: 'text', text: 'annotated', annotations: { priority: 1 } }] }),
    twoItems: () => ({ content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }),
    instance: () => new Result('from a class'),
    withToJSON: () => ({ content: [{ type: 'text', text: 'not this' }], toJSON: () => ({ content: [{ type: 'text', text: 'but this' }] }) }),
    marker: () => ({ content: [{ type: 'text', text: MARKER + '0' }] }),
  }
  const server = new Server({ name: 'text-results', version: '1' })
  for (const [name, make] of Object.entries(shapes)) server.tool(name, {}, make)
  const http = await server.serveHttp({ host: '127.0.0.1', port: 0 })
  try {
    for (const protocolVersion of [MODERN, LEGACY]) {
      const client = await Client.connectHttp(http.url, { protocolVersion })
      try {
        for (const [name, make] of Object.entries(shapes)) {
          const expected = name === 'string' ? { content: [{ type: 'text', text: make() }] } : JSON.parse(JSON.stringify(make()))
          const got = await client.callTool(name, {})
          assert.deepEqual(got.content, expected.content, `${name} (${protocolVersion})`)
          assert.equal(got.isError ?? false, expected.isError ?? false, `${name} (${protocolVersion})`)
        }
      } finally {
        await client.close()
      }
    }
  } finally {
    await server.close()
  }
})

test('large strings cross both ways over HTTP, in both eras', async () => {
  const server = new Server({ name: 'large-http', version: '1' })
  server.tool('result', {}, ({ result }) => result)
  const http = await server.serveHttp({ host: '127.0.0.1', port: 0 })
  try {
    for (const protocolVersion of [MODERN, LEGACY]) {
      const client = await Client.connectHttp(http.url, { protocolVersion })
      try {
        const big = fill('h"\\é😀\n', 70000)
        const result = {
          content: [{ type: 'text', text: big }, { type: 'text', text: 'small' }],
          // Client and server share this process's marker here: strings that start with it cross
          // every step unchanged.
          structuredContent: { again: big, marker: [MARKER, MARKER + '0', MARKER + '1'], list: [fill('x', 5000)] },
        }
        const got = await client.callTool('result', { result })
        assert.deepEqual(got.content, result.content, protocolVersion)
        assert.deepEqual(got.structuredContent, result.structuredContent, protocolVersion)
      } finally {
        await client.close()
      }
    }
  } finally {
    await server.close()
  }
})
