'use strict'
// The official TypeScript SDK's `elicitationUrlExample` (Express, the SDK's demo OAuth
// authorization server and bearer-token middleware kept, URL elicitation) ported to libmcp by
// changing its import lines only, run as published and as ported, driven by the SDK's client
// through the demo's OAuth flow, and compared, the `notifications/elicitation/complete` the example
// sends once the payment is confirmed (after its request was answered) included.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { UnauthorizedError } = require('@modelcontextprotocol/sdk/client/auth.js')
const { InMemoryOAuthClientProvider } = require('@modelcontextprotocol/sdk/examples/client/simpleOAuthClientProvider.js')
const { ElicitRequestSchema, ElicitationCompleteNotificationSchema } = require('@modelcontextprotocol/sdk/types.js')
const { EXAMPLES, ported, unusedPort, runExample, masked } = require('./sdk_port')

const work = fs.mkdtempSync(path.join(__dirname, '.ported-url-'))
test.after(() => fs.rmSync(work, { recursive: true, force: true }))

const CALLBACK = 'http://localhost:8090/callback'

/** Resolves once `check()` is true (every 20 ms, within 10 s). */
async function until (check, what) {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.ok(check(), `waited 10 s for ${what}`)
}

/** What the SDK client sees of the example served on `port`: the OAuth flow, the tools, the
 * -32042 errors of both tools, the payment form confirmed in the browser's place, and the
 * elicitation requests and completion notifications that reach it (the payment's waited for). */
async function transcript (port) {
  const url = new URL(`http://localhost:${port}/mcp`)
  const elicitations = []
  const completions = []
  let authorizeAt
  const provider = new InMemoryOAuthClientProvider(CALLBACK, {
    client_name: 'url-elicitation-test', redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'], token_endpoint_auth_method: 'client_secret_post', scope: 'mcp:tools',
  }, (u) => { authorizeAt = u })
  const newClient = () => {
    const c = new Client({ name: 'url-elicitation-test', version: '1' }, { capabilities: { elicitation: { url: {} } } })
    c.setRequestHandler(ElicitRequestSchema, (r) => {
      elicitations.push(r.params)
      return { action: 'accept' }
    })
    c.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => { completions.push(n.params.elicitationId) })
    return c
  }
  // No token yet: the demo's authorization endpoint answers with a redirect carrying the code (and
  // the browser session cookie the example's forms check).
  let transport = new StreamableHTTPClientTransport(url, { authProvider: provider })
  await assert.rejects(newClient().connect(transport), UnauthorizedError)
  const authorized = await fetch(authorizeAt, { redirect: 'manual' })
  const cookie = authorized.headers.get('set-cookie').split(';')[0]
  await transport.finishAuth(new URL(authorized.headers.get('location')).searchParams.get('code'))
  const client = newClient()
  transport = new StreamableHTTPClientTransport(url, { authProvider: provider })
  await client.connect(transport)
  const session = transport.sessionId
  const hide = (v) => JSON.parse(masked(JSON.stringify(v).replaceAll(session, 'SESSION')))
  try {
    const out = { tools: (await client.listTools()).tools, calls: {} }
    let payment
    for (const [name, args] of [['payment-confirm', { cartId: 'cart-7' }], ['third-party-auth', { param1: 'x' }]]) {
      const e = await client.callTool({ name, arguments: args }).then(() => assert.fail(`${name} answered`), (x) => x)
      if (name === 'payment-confirm') payment = e.data.elicitations[0]
      out.calls[name] = hide({ code: e.code, message: e.message, data: e.data, type: e.constructor.name })
    }
    // The user confirms the payment in the browser.
    const form = new URL(payment.url)
    const confirm = await fetch(new URL('/confirm-payment', url), {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ session: form.searchParams.get('session'), elicitation: payment.elicitationId, cartId: 'cart-7', action: 'confirm' }),
    })
    out.confirmed = [confirm.status, /Payment Confirmed/.test(await confirm.text())]
    await until(() => completions.includes(payment.elicitationId), 'the payment\'s completion')
    // The third-party-auth elicitation completes 5 s after its call: only the payment's is kept.
    out.completed = completions.filter((id) => id === payment.elicitationId).map(() => 'payment')
    out.elicitations = hide(elicitations)
    return out
  } finally {
    await transport.terminateSession().catch(() => {})
    await client.close()
  }
}

test('elicitationUrlExample, ported by its import lines', { timeout: 180_000 }, async () => {
  const original = path.join(EXAMPLES, 'elicitationUrlExample.js')
  const copy = path.join(work, 'elicitationUrlExample.mjs')
  fs.writeFileSync(copy, ported(fs.readFileSync(original, 'utf8')))
  const [want, got] = await Promise.all([original, copy].map(async (file) => {
    const [mcp, auth] = [await unusedPort(), await unusedPort()]
    const env = { MCP_PORT: String(mcp), MCP_AUTH_PORT: String(auth) }
    const server = await runExample([file], env, /OAuth Authorization Server listening[^]*MCP Streamable HTTP Server listening|MCP Streamable HTTP Server listening[^]*OAuth Authorization Server listening/)
    try {
      return await transcript(mcp)
    } finally {
      server.stop()
    }
  }))
  // Both tools answer -32042 with their elicitation, and the form confirms on both.
  assert.equal(want.calls['payment-confirm'].code, -32042)
  assert.equal(want.calls['payment-confirm'].type, 'UrlElicitationRequiredError')
  assert.match(want.calls['payment-confirm'].data.elicitations[0].url, /^http:\/\/localhost:\d+\/confirm-payment\?session=SESSION&elicitation=UUID&cartId=cart-7$/)
  assert.deepEqual(want.confirmed, [200, true])
  // The payment's completion, sent after its request was answered, reached both clients.
  assert.deepEqual(want.completed, ['payment'])
  assert.deepEqual(got.completed, ['payment'])
  // The example asks for the API key once its GET handler's `handleRequest` has returned, which
  // is when the GET stream has ended, on both: that elicitation reaches neither client.
  assert.deepEqual(want.elicitations, [])
  // The URL in each error names the example's port, which differs between the two runs.
  assert.deepEqual(JSON.parse(JSON.stringify(got).replace(/localhost:\d+/g, 'localhost:PORT')), JSON.parse(JSON.stringify(want).replace(/localhost:\d+/g, 'localhost:PORT')))
})

test('createElicitationCompletionNotifier: the client\'s capability checked, the notification sent after the answer', async () => {
  const { McpServer, InMemoryTransport } = require('libmcp/sdk')
  const run = async (capabilities) => {
    const server = new McpServer({ name: 'notifier', version: '1' })
    let notifier
    server.registerTool('notify', {}, async () => {
      try {
        notifier = server.server.createElicitationCompletionNotifier('e-1')
      } catch (e) {
        return { content: [{ type: 'text', text: e.message }] }
      }
      return { content: [{ type: 'text', text: 'made' }] }
    })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'c', version: '1' }, { capabilities })
    const completions = []
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => { completions.push(n.params) })
    await client.connect(clientSide)
    try {
      const text = (await client.callTool({ name: 'notify', arguments: {} })).content[0].text
      if (notifier === undefined) return text
      // The request was answered: the notification still reaches the session.
      await notifier()
      await until(() => completions.length === 1, 'the completion')
      assert.deepEqual(completions, [{ elicitationId: 'e-1' }])
      return text
    } finally {
      await client.close()
      await server.close()
      // The session ended: the notifier rejects, naming why.
      if (notifier !== undefined) {
        await assert.rejects(notifier(), { name: 'TransportError', message: 'the session has ended: no notification can reach it' })
      }
    }
  }
  assert.equal(await run({ elicitation: { url: {} } }), 'made')
  assert.equal(await run({ elicitation: { form: {} } }), 'Client does not support URL elicitation (required for notifications/elicitation/complete)')
  assert.throws(() => new McpServer({ name: 'n', version: '1' }).server.createElicitationCompletionNotifier('e-2'), /^Error: createElicitationCompletionNotifier can only be called while a handler runs/)
})
