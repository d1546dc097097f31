'use strict'
// The conformance "everything" client on the libmcp Node package: what the official MCP
// conformance suite's client scenarios ask of a client, the same scenarios as the Rust one
// (examples/src/scenarios.rs). The auth/* scenarios authorize with OAuth 2.1: the suite's
// authorization servers redirect at once (so no onAuthorize is needed), pre-registered credentials
// come from the context, servers that support client ID metadata documents get the suite's URL, and
// the extension scenarios configure their grant (client credentials, workload identity,
// enterprise-managed) or DPoP from the context.
// Usage: node everything-client.js URL   (the scenario comes from MCP_CONFORMANCE_SCENARIO, the
// protocol version from MCP_CONFORMANCE_PROTOCOL_VERSION, extra data from MCP_CONFORMANCE_CONTEXT)
// Exit codes: 0 success, 1 scenario failure or unknown scenario, 2 usage error.
const path = require('node:path')
const { Client } = require(path.join(__dirname, '..', '..', 'bindings-node'))

// The client ID metadata document URL the suite's authorization servers accept.
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'
const NAME = 'libmcp-node-everything-client'

// What each scenario does once connected (auth/* scenarios are handled apart).
const SCENARIOS = {
  initialize: (c) => listTools(c),
  'json-schema-ref-no-deref': (c) => listTools(c),
  tools_call: addNumbers,
  'http-standard-headers': addNumbers,
  'request-metadata': async (c) => {
    if (c.era === 'modern') await c.request('server/discover')
    await addNumbers(c)
  },
  'elicitation-sep1034-client-defaults': (c) => call(c, 'test_client_elicitation_defaults'),
  'sse-retry': async (c) => {
    await listTools(c)
    await call(c, 'test_reconnection')
  },
  'sep-2322-client-request-state': async (c) => {
    await listTools(c)
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_unrelated', 'test_mrtr_no_state', 'test_mrtr_no_result_type']) {
      await call(c, name)
    }
  },
  'json-schema-2020-12-preservation': async (c) => {
    const tool = (await listTools(c)).find((t) => t.name === 'json_schema_2020_12_tool')
    if (!tool) throw new Error('json_schema_2020_12_tool is not listed')
    await call(c, 'json_schema_echo', { schema: tool.inputSchema })
  },
  // The transport learns each tool's x-mcp-header parameters from tools/list.
  'http-custom-headers': async (c, context) => {
    await listTools(c)
    for (const { name, arguments: args } of context.toolCalls ?? []) await call(c, name, args ?? {})
  },
  'http-invalid-tool-headers': async (c) => {
    await listTools(c)
    await call(c, 'valid_tool')
  },
  // Listing reads no skill file (files are read only when a skill is loaded).
  'sep-2640-client-no-prefetch': (c) => c.listSkills(),
  'sep-2640-client-verify-digest': loadSkills,
  'sep-2640-client-verify-size': loadSkills,
  'sep-2640-client-verify-frontmatter': loadSkills,
}

// Loads every skill: its SKILL.md, verified, then its other files, each verified; the first file
// that fails verification stops the scenario with an error.
async function loadSkills (c) {
  for (const entry of (await c.listSkills()).skills) {
    await c.readSkillFile(entry)
    const files = Array.isArray(entry.resources) ? entry.resources : []
    for (const f of files.filter((f) => f.uri !== entry.uri)) await c.readSkillFile(entry, f.uri)
  }
}

async function listTools (c) {
  return (await c.listTools()).tools
}

// Calls a tool; a result with isError: true fails the scenario.
async function call (c, name, args = {}) {
  const result = await c.callTool(name, args)
  if (result.isError) throw new Error(`tools/call ${name} returned a tool error: ${JSON.stringify(result.content)}`)
  return result
}

async function addNumbers (c) {
  await listTools(c)
  await call(c, 'add_numbers', { a: 5, b: 3 })
}

// A value of a required property's type, for a form field without a default.
function placeholder (prop) {
  if (Array.isArray(prop.enum) && prop.enum.length) return prop.enum[0]
  if (Array.isArray(prop.oneOf) && prop.oneOf.length) return prop.oneOf[0].const
  switch (prop.type) {
    case 'boolean': return true
    case 'integer': case 'number': return 0
    case 'array': return []
    default: return 'conformance'
  }
}

// Accepts an elicitation form with every schema default filled in, and a placeholder for required
// fields that have none.
function acceptWithDefaults (params) {
  const schema = params.requestedSchema ?? {}
  const required = schema.required ?? []
  const content = {}
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if ('default' in prop) content[name] = prop.default
    else if (required.includes(name)) content[name] = placeholder(prop)
  }
  return { action: 'accept', content }
}

function need (context, key) {
  if (typeof context[key] !== 'string') throw new Error(`MCP_CONFORMANCE_CONTEXT has no string ${JSON.stringify(key)}`)
  return context[key]
}

// The OAuth options of an auth/* scenario.
function oauthOptions (scenario, context) {
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return { grant: { type: 'clientCredentials', clientId: need(context, 'client_id'), clientSecret: need(context, 'client_secret') } }
    case 'auth/client-credentials-jwt':
      return {
        grant: {
          type: 'clientCredentials',
          clientId: need(context, 'client_id'),
          privateKeyPem: need(context, 'private_key_pem'),
          signingAlgorithm: context.signing_algorithm ?? 'ES256',
        },
      }
    case 'auth/wif-jwt-bearer':
      return { grant: { type: 'jwtBearer', clientId: context.client_id, assertion: need(context, 'valid_jwt') } }
    case 'auth/enterprise-managed-authorization':
      return {
        grant: {
          type: 'enterpriseManaged',
          idpTokenEndpoint: need(context, 'idp_token_endpoint'),
          idpClientId: need(context, 'idp_client_id'),
          idToken: need(context, 'idp_id_token'),
          clientId: need(context, 'client_id'),
          clientSecret: need(context, 'client_secret'),
        },
      }
  }
  const oauth = { redirectUri: 'http://localhost:3000/callback', clientName: NAME, clientMetadataUrl: CLIENT_METADATA_URL }
  if (typeof context.client_id === 'string') {
    oauth.preRegistered = { clientId: context.client_id, clientSecret: context.client_secret }
  }
  if (scenario.startsWith('auth/dpop')) oauth.dpop = true
  return oauth
}

// The protocol version to connect with: the harness's decides the era (dated versions through
// 2025-11-25 use initialize, 2026-07-28 the modern lifecycle); json-schema-ref-no-deref is always
// legacy, its mock server only speaks the handshake lifecycle.
function protocolVersion (scenario, version) {
  if (scenario === 'json-schema-ref-no-deref' && !(version && version <= '2025-11-25')) return '2025-11-25'
  return version || undefined
}

async function main () {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO
  const url = process.argv[process.argv.length - 1]
  if (!scenario || process.argv.length < 3) {
    console.error('Usage: MCP_CONFORMANCE_SCENARIO=<name> node everything-client.js <http-url>')
    return 2
  }
  const isAuth = scenario.startsWith('auth/')
  if (!isAuth && !(scenario in SCENARIOS)) {
    console.error(`Unknown scenario: ${scenario}`)
    return 1
  }
  let context
  try {
    context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}')
  } catch (e) {
    console.error(`everything-client: MCP_CONFORMANCE_CONTEXT is not JSON: ${e.message}`)
    return 2
  }
  const client = await Client.connectHttp(url, {
    name: NAME,
    protocolVersion: protocolVersion(scenario, process.env.MCP_CONFORMANCE_PROTOCOL_VERSION),
    onElicitation: acceptWithDefaults,
    onSampling: () => ({
      role: 'assistant',
      content: { type: 'text', text: 'This is a canned answer from the libmcp Node everything-client.' },
      model: NAME,
      stopReason: 'endTurn',
    }),
    roots: [{ uri: 'file:///tmp/libmcp-everything-client', name: 'Scratch' }],
    oauth: isAuth ? oauthOptions(scenario, context) : undefined,
  })
  try {
    // Every request is authorized by the transport; two after connecting let the step-up and
    // migration scenarios challenge again.
    if (isAuth) {
      await listTools(client)
      await call(client, 'test-tool')
    } else {
      await SCENARIOS[scenario](client, context)
    }
  } finally {
    await client.close()
  }
  console.error(`everything-client: scenario ${scenario} passed`)
  return 0
}

main().then((code) => { process.exitCode = code }, (e) => {
  console.error(`everything-client: scenario ${process.env.MCP_CONFORMANCE_SCENARIO} failed: ${e && e.stack ? e.stack : e}`)
  process.exitCode = 1
})
