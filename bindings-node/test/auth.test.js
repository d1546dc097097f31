'use strict'
// serveHttp in OAuth 2.1 resource-server mode with a JS token verifier: the protected resource
// metadata, the exact challenges for missing, refused and under-scoped tokens, a verifier that
// fails (503), the verified token visible to a tool, and bad auth options. Then the client's
// authorization (connectHttp with `oauth`) against such a server and a small authorization server
// (fixtures/auth_server.js): discovery, registration, PKCE, the redirect step, the token.
const test = require('node:test')
const assert = require('node:assert/strict')
const net = require('node:net')
const { Server, Client, InvalidTokenError, InvalidArgumentError } = require('..')
const { startAuthServer } = require('./fixtures/auth_server')

const RESOURCE = 'https://mcp.example.com/mcp'
const PRM_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
const LEGACY = '2025-11-25'

/** Test tokens: their facts, a refusal, or a verifier failure. */
async function verifyToken (token) {
  const base = (subject) => ({ subject, clientId: 'app', scopes: ['mcp:read'], audience: [RESOURCE], expiresAt: Date.now() / 1000 + 3600 })
  switch (token) {
    case 'alice': return { ...base('alice'), claims: { tenant: 'acme' } }
    case 'alice-admin': return { ...base('alice'), scopes: ['mcp:read', 'mcp:admin'] }
    case 'expired': return { ...base('alice'), expiresAt: Date.now() / 1000 - 10 }
    case 'no-scope': return { ...base('alice'), scopes: [] }
    case 'bad-shape': return { ...base('alice'), scopes: 'mcp:read' }
    case 'down': throw new Error('the key set is unreachable')
    case 'refused': return null
    default: throw new InvalidTokenError('unknown token')
  }
}

async function start () {
  const server = new Server({ name: 'auth-node', version: '1' })
  server.tool('whoami', {}, (_a, ctx) => {
    const a = ctx.auth
    return `${a.subject} ${a.clientId} ${a.scopes.join(',')} ${a.claims.tenant ?? '-'}`
  })
  server.tool('admin', {}, () => 'admin done')
  const http = await server.serveHttp({
    auth: {
      resource: RESOURCE,
      verifyToken,
      authorizationServers: ['https://auth.example.com'],
      scopesSupported: ['mcp:read', 'mcp:admin'],
      requiredScopes: ['mcp:read'],
      toolScopes: { admin: ['mcp:admin'] },
      resourceName: 'Node MCP',
    },
  })
  return { server, http }
}

function initialize (url, token) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  return fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  })
}

async function challenge (res) {
  return { status: res.status, header: res.headers.get('www-authenticate'), body: await res.json() }
}

test('the protected resource metadata is served without a token', async () => {
  const { server, http } = await start()
  try {
    const res = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', http.url))
    assert.equal(res.status, 200)
    assert.deepEqual(await res.json(), {
      resource: RESOURCE,
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['mcp:read', 'mcp:admin'],
      bearer_methods_supported: ['header'],
      resource_name: 'Node MCP',
    })
  } finally {
    await server.close()
  }
})

test('missing, refused, expired and under-scoped tokens get their challenges', async () => {
  const { server, http } = await start()
  try {
    assert.deepEqual(await challenge(await initialize(http.url)), {
      status: 401,
      header: `Bearer resource_metadata="${PRM_URL}", scope="mcp:read"`,
      body: { error: 'invalid_token', scope: 'mcp:read', error_description: 'this resource needs an Authorization: Bearer access token' },
    })
    for (const [token, why] of [['nonsense', 'unknown token'], ['refused', 'the token was refused'], ['expired', 'the access token has expired']]) {
      assert.deepEqual(await challenge(await initialize(http.url, token)), {
        status: 401,
        header: `Bearer error="invalid_token", error_description="${why}", resource_metadata="${PRM_URL}", scope="mcp:read"`,
        body: { error: 'invalid_token', error_description: why, scope: 'mcp:read' },
      }, token)
    }
    const why = 'the access token lacks the scope mcp:read'
    assert.deepEqual(await challenge(await initialize(http.url, 'no-scope')), {
      status: 403,
      header: `Bearer error="insufficient_scope", error_description="${why}", resource_metadata="${PRM_URL}", scope="mcp:read"`,
      body: { error: 'insufficient_scope', error_description: why, scope: 'mcp:read' },
    })
  } finally {
    await server.close()
  }
})

test('a verifier that throws, or resolves to a wrong shape, costs that request a 503', async () => {
  const { server, http } = await start()
  try {
    for (const token of ['down', 'bad-shape']) {
      const res = await initialize(http.url, token)
      assert.equal(res.status, 503, token)
    }
    // The server still serves good tokens.
    assert.equal((await initialize(http.url, 'alice')).status, 200)
  } finally {
    await server.close()
  }
})

test('the Node client with a bearer token: the tool sees the verified token; a tool scope steps up', async () => {
  const { server, http } = await start()
  try {
    const alice = await Client.connectHttp(http.url, { headers: { authorization: 'Bearer alice' } })
    try {
      assert.equal((await alice.callTool('whoami', {})).content[0].text, 'alice app mcp:read acme')
      await assert.rejects(alice.callTool('admin', {}), (e) => e.message.includes('mcp:admin'))
    } finally {
      await alice.close()
    }
    const admin = await Client.connectHttp(http.url, { headers: { authorization: 'Bearer alice-admin' } })
    try {
      assert.equal((await admin.callTool('admin', {})).content[0].text, 'admin done')
    } finally {
      await admin.close()
    }
  } finally {
    await server.close()
  }
})

test('bad auth options are refused with clear errors', async () => {
  const server = new Server({ name: 'auth-bad', version: '1' })
  await assert.rejects(server.serveHttp({ auth: { resource: RESOURCE } }), { name: 'TypeError', message: 'auth.verifyToken must be a function, got undefined' })
  await assert.rejects(server.serveHttp({ auth: 'yes' }), { name: 'TypeError', message: 'auth options must be an object, got string' })
  await assert.rejects(server.serveHttp({ auth: { verifyToken } }), (e) => e instanceof InvalidArgumentError &&
    e.message === "auth.resource must be the endpoint's canonical URL (a string)")
  await assert.rejects(server.serveHttp({ auth: { resource: RESOURCE, verifyToken, toolScopes: { admin: 'x' } } }), (e) => e instanceof InvalidArgumentError &&
    e.message === 'auth.toolScopes.admin must be an array of strings')
  await server.close()
})

/** A free local port (the resource URL must be known before the server listens). */
function freePort () {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/** An MCP server whose tokens come from the authorization server `as`. */
async function protectedServer (as) {
  const port = await freePort()
  const resource = `http://127.0.0.1:${port}/mcp`
  const server = new Server({ name: 'oauth-node', version: '1' })
  server.tool('whoami', {}, (_a, ctx) => `${ctx.auth.subject} via ${ctx.auth.clientId}`)
  const http = await server.serveHttp({
    port,
    auth: {
      resource,
      authorizationServers: [as.issuer],
      requiredScopes: ['mcp:read'],
      verifyToken: (token) => as.tokens.get(token) ?? null,
    },
  })
  return { server, url: http.url }
}

test('the Node client authorizes with OAuth: the redirect step is onAuthorize', async () => {
  const as = await startAuthServer()
  const { server, url } = await protectedServer(as)
  const seen = []
  try {
    const client = await Client.connectHttp(url, {
      oauth: { redirectUri: 'http://127.0.0.1:9/callback', clientName: 'node-test' },
      onAuthorize: async (authorizationUrl) => {
        seen.push(authorizationUrl)
        // The user's browser: the authorization server redirects at once.
        const res = await fetch(authorizationUrl, { redirect: 'manual' })
        return res.headers.get('location')
      },
    })
    try {
      assert.equal((await client.callTool('whoami', {})).content[0].text, 'ada via client-1')
    } finally {
      await client.close()
    }
    assert.equal(seen.length, 1)
    const q = new URL(seen[0]).searchParams
    assert.equal(new URL(seen[0]).origin + new URL(seen[0]).pathname, `${as.issuer}/authorize`)
    assert.equal(q.get('response_type'), 'code')
    assert.equal(q.get('client_id'), 'client-1')
    assert.equal(q.get('code_challenge_method'), 'S256')
    assert.equal(q.get('resource'), url)
    assert.equal(q.get('redirect_uri'), 'http://127.0.0.1:9/callback')
    assert.deepEqual(as.log.filter((l) => !l.startsWith('GET /.well-known')), ['POST /register', 'GET /authorize', 'POST /token'])
  } finally {
    await server.close()
    await as.close()
  }
})

test('without onAuthorize the authorization URL is followed; a failing onAuthorize fails the connect', async () => {
  const as = await startAuthServer()
  const { server, url } = await protectedServer(as)
  try {
    const client = await Client.connectHttp(url, { oauth: { redirectUri: 'http://127.0.0.1:9/callback' } })
    try {
      assert.equal((await client.callTool('whoami', {})).content[0].text, 'ada via client-1')
    } finally {
      await client.close()
    }
    await assert.rejects(Client.connectHttp(url, {
      oauth: { redirectUri: 'http://127.0.0.1:9/callback' },
      onAuthorize: async () => { throw new Error('the user closed the window') },
    }), (e) => /denied: the authorization handler failed: .*the user closed the window/.test(e.message))
  } finally {
    await server.close()
    await as.close()
  }
})

test('the Node client authorizes with a grant that needs no user: client credentials', async () => {
  const as = await startAuthServer()
  const { server, url } = await protectedServer(as)
  try {
    const client = await Client.connectHttp(url, { oauth: { grant: { type: 'clientCredentials', clientId: 'service', clientSecret: 's3cret' } } })
    try {
      assert.equal((await client.callTool('whoami', {})).content[0].text, 'service via service')
    } finally {
      await client.close()
    }
    assert.deepEqual(as.log.filter((l) => !l.startsWith('GET /.well-known')), ['POST /token'])
    // A wrong secret: the token endpoint refuses, and so does the connect.
    await assert.rejects(Client.connectHttp(url, { oauth: { grant: { type: 'clientCredentials', clientId: 'service', clientSecret: 'nope' } } }),
      (e) => e.kind === 'authorization' && /invalid_client/.test(e.message))
  } finally {
    await server.close()
    await as.close()
  }
})

test('bad OAuth client options are refused with clear errors', async () => {
  await assert.rejects(Client.connectHttp('http://127.0.0.1:9/mcp', { oauth: {} }), (e) => e instanceof InvalidArgumentError &&
    e.message === 'oauth.redirectUri must be the URL the user is sent back to')
  await assert.rejects(Client.connectHttp('http://127.0.0.1:9/mcp', { onAuthorize: () => 'x' }), (e) => e instanceof InvalidArgumentError &&
    e.message === 'onAuthorize needs the oauth options')
  await assert.rejects(Client.connectHttp('http://127.0.0.1:9/mcp', { oauth: { redirectUri: 'http://x/cb' }, onAuthorize: 'x' }), { name: 'TypeError', message: 'onAuthorize must be a function' })
  await assert.rejects(Client.connectHttp('http://127.0.0.1:9/mcp', { oauth: { redirectUri: 'http://x/cb', preRegistered: { clientSecret: 's' } } }),
    (e) => e instanceof InvalidArgumentError && e.message === 'oauth.preRegistered.clientId must be a string')
  const refused = async (oauth, message, extra = {}) => assert.rejects(Client.connectHttp('http://127.0.0.1:9/mcp', { oauth, ...extra }),
    (e) => e instanceof InvalidArgumentError && (typeof message === 'string' ? e.message === message : message.test(e.message)))
  await refused({ redirectUri: 'http://x/cb', dpop: 'yes' }, 'oauth.dpop must be a boolean')
  await refused({ grant: 'clientCredentials' }, 'oauth.grant must be an object')
  await refused({ grant: { type: 'password' } }, 'oauth.grant.type must be clientCredentials, jwtBearer or enterpriseManaged, got "password"')
  await refused({ grant: { type: 'clientCredentials', clientId: 'a' } }, 'a clientCredentials grant needs one of clientSecret or privateKeyPem')
  await refused({ grant: { type: 'clientCredentials', clientId: 'a', clientSecret: 1 } }, 'oauth.grant.clientSecret must be a string')
  await refused({ grant: { type: 'clientCredentials', clientId: 'a', privateKeyPem: 'not a key' } }, /^oauth\.grant\.privateKeyPem: /)
  await refused({ grant: { type: 'jwtBearer', assertion: 'a', assertionFile: '/f' } }, 'oauth.grant needs one of assertion (the token) or assertionFile (a file holding it), as a string')
  await refused({ grant: { type: 'enterpriseManaged', idpTokenEndpoint: 'http://idp/token', idToken: 't', clientId: 'c' } }, 'oauth.grant.idpClientId must be a string')
  await refused({ grant: { type: 'jwtBearer', assertion: 'a' } }, 'onAuthorize is for the authorization code grant, not oauth.grant', { onAuthorize: () => 'x' })
})
