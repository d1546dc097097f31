'use strict'
// The Node client against a Node server over Streamable HTTP in one process, both eras: MRTR,
// progress, cancellation reaching the handler's AbortSignal, concurrent calls, headers, close.
const test = require('node:test')
const assert = require('node:assert/strict')
const { Server, Client, CancelledError, TransportError, inputRequired, elicit } = require('..')
const { LEGACY, MODERN } = require('./helpers')

function makeServer (state) {
  const server = new Server({ name: 'http-fixture', version: '1' })
  server.tool('echo', {}, ({ text }) => String(text))
  server.tool('greet', {}, (_a, ctx) => ctx.inputResponse('who')
    ? `Hello, ${ctx.inputResponse('who').content.name}!`
    : inputRequired({ who: elicit('Name?', { type: 'object', properties: { name: { type: 'string' } } }) }))
  server.tool('slow', {}, async (_a, ctx) => {
    ctx.progress(0.5, 1, 'half')
    await new Promise((resolve) => setTimeout(resolve, 20))
    return 'slow done'
  })
  server.tool('wait', {}, (_a, ctx) => new Promise((resolve) => {
    ctx.signal.addEventListener('abort', () => { state.aborted += 1; resolve('aborted') })
  }))
  server.tool('aborted', {}, () => String(state.aborted))
  server.tool('headers', {}, (_a, ctx) => JSON.stringify({ era: ctx.era, version: ctx.protocolVersion }))
  return server
}

for (const protocolVersion of [MODERN, LEGACY]) {
  test(`node client and node server over HTTP, ${protocolVersion}`, async () => {
    const state = { aborted: 0 }
    const server = makeServer(state)
    const http = await server.serveHttp({ host: '127.0.0.1', port: 0 })
    assert.match(http.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const client = await Client.connectHttp(http.url, {
      protocolVersion,
      onElicitation: async () => ({ action: 'accept', content: { name: 'Http' } }),
    })
    try {
      assert.equal(client.protocolVersion, protocolVersion)
      assert.equal((await client.callTool('echo', { text: 'over http' })).content[0].text, 'over http')
      assert.equal((await client.callTool('greet', {})).content[0].text, 'Hello, Http!')
      const seen = []
      assert.equal((await client.callTool('slow', {}, { onprogress: (p) => seen.push(p.message) })).content[0].text, 'slow done')
      assert.deepEqual(seen, ['half'])
      const ctx = JSON.parse((await client.callTool('headers', {})).content[0].text)
      assert.deepEqual(ctx, { era: protocolVersion === MODERN ? 'modern' : 'legacy', version: protocolVersion })

      const controller = new AbortController()
      const pending = client.callTool('wait', {}, { signal: controller.signal })
      setTimeout(() => controller.abort(), 100)
      await assert.rejects(pending, CancelledError)
      let seenAbort = '0'
      for (let i = 0; i < 50 && seenAbort === '0'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        seenAbort = (await client.callTool('aborted', {})).content[0].text
      }
      assert.equal(seenAbort, '1')

      const many = await Promise.all(Array.from({ length: 64 }, (_, i) => client.callTool('echo', { text: i })))
      many.forEach((r, i) => assert.equal(r.content[0].text, String(i)))
    } finally {
      await client.close()
      await http.close()
    }
    await http.closed
    await assert.rejects(Client.connectHttp(http.url, { protocolVersion }), TransportError)
  })
}
