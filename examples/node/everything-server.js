'use strict'
// The conformance "everything" server on the libmcp Node package: the tools, resources, prompts
// and completion the official MCP conformance suite names in its server scenarios, the same
// fixtures as the Rust one (examples/src/everything/). Input is asked for once, MRTR-style: the
// engine answers modern requests with input_required and serves legacy sessions with real
// server-to-client requests.
// Usage: node everything-server.js [--http [HOST:PORT]]   (stdio without --http; port 0: any)
const path = require('node:path')
const { Server, McpError, inputRequired, elicit, createMessage, listRoots } = require(path.join(__dirname, '..', '..', 'bindings-node'))

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA='
const noArgs = { inputSchema: { type: 'object', properties: {} } }
const text = (t) => ({ content: [{ type: 'text', text: t }] })
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const image = { type: 'image', data: PNG, mimeType: 'image/png' }

// The skill served through the skills extension (SEP-2640), the Rust server's
// (examples/src/everything/skills.rs): a SKILL.md and a file in a subdirectory, so that listing,
// retrieval, verification and directory reads have something to work on.
const SKILL_MD = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\n---\n\n' +
  '# PDF processing\n\nUse the form reference in references/FORMS.md when a PDF has fields to fill.\n'
const FORMS_MD = '# Forms\n\nFill every field, then flatten the document.\n'

const server = new Server({ name: 'libmcp-node-everything-server', version: '0.1.0', title: 'libmcp Node everything server' }, {
  instructions: 'Conformance fixture: every tool, resource and prompt named by the MCP conformance suite.',
  skills: [{ skillMd: SKILL_MD, files: [{ path: 'references/FORMS.md', mimeType: 'text/markdown', content: FORMS_MD }] }],
})

function tool (name, description, handler, inputSchema = noArgs.inputSchema) {
  server.tool(name, { description, inputSchema }, handler)
}

// --- content, errors, logging, progress, schemas
tool('test_simple_text', 'Returns a simple text response', () => text('This is a simple text response for testing.'))
tool('test_image_content', 'Returns an image (a 1x1 PNG)', () => ({ content: [image] }))
tool('test_audio_content', 'Returns audio (a short WAV)', () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }))
tool('test_embedded_resource', 'Returns an embedded text resource', () => ({
  content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
}))
tool('test_multiple_content_types', 'Returns text, an image and an embedded resource', () => ({
  content: [
    { type: 'text', text: 'Multiple content types test:' },
    image,
    { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
  ],
}))
tool('test_error_handling', 'Always fails with a tool error (isError), not a protocol error', () => {
  throw new Error('This tool intentionally returns an error for testing')
})
tool('test_tool_with_logging', 'Sends three info log messages about 50 ms apart, then returns', async (_a, ctx) => {
  const messages = ['Tool execution started', 'Tool processing data', 'Tool execution completed']
  for (const [i, m] of messages.entries()) {
    if (i > 0) await sleep(50)
    ctx.log('info', m)
  }
  return text('Tool with logging executed successfully')
})
tool('test_tool_with_progress', 'Reports progress 0, 50 and 100 of 100 about 50 ms apart (when a progressToken is given)', async (_a, ctx) => {
  for (const [i, p] of [0, 50, 100].entries()) {
    if (i > 0) await sleep(50)
    ctx.progress(p, 100)
  }
  return text('Tool with progress executed successfully')
})
tool('test_logging_tool', 'Logs at debug, info and warning; the modern era only delivers them when the request names a logLevel', (_a, ctx) => {
  const sent = ['debug', 'info', 'warning'].filter((level) => ctx.log(level, `test_logging_tool: ${level} message`, 'test_logging_tool')).length
  return text(`Logging test completed: ${sent} message(s) sent`)
})
tool('test_missing_capability', "Needs the client's sampling capability: fails with -32021 when the request does not declare it", (_a, ctx) => {
  if (!ctx.hasClientCapability('sampling')) throw McpError.missingCapability({ sampling: {} })
  return text('Success')
})
server.tool('json_schema_2020_12_tool', {
  description: 'Tool with a JSON Schema 2020-12 input schema ($defs, $anchor, $ref, allOf/anyOf, if/then/else)',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' }, postalCode: { type: 'string' } },
        required: ['street', 'city'],
      },
    },
    properties: {
      name: { type: 'string', description: "The contact's name" },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string', format: 'email' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
}, (args) => text(`json_schema_2020_12_tool received: ${JSON.stringify(args)}`))

// --- input from the client
const stringForm = (field, description) => ({ type: 'object', properties: { [field]: { type: 'string', description } }, required: [field] })
const userMessage = (t, maxTokens) => ({ messages: [{ role: 'user', content: { type: 'text', text: t } }], maxTokens })
const askName = () => elicit('What is your name?', stringForm('name', 'Your name'))
const askCapital = () => createMessage(userMessage('What is the capital of France?', 100))

function accepted (ctx, key) {
  const r = ctx.inputResponse(key)
  return r && r.action === 'accept' && r.content && typeof r.content === 'object' ? r.content : undefined
}
function acceptedStr (ctx, key, field) {
  const v = accepted(ctx, key)?.[field]
  return typeof v === 'string' ? v : undefined
}
function describeElicitation (answer) {
  return `action=${answer.action ?? 'unknown'}, content=${JSON.stringify(answer.content ?? {})}`
}
function sampledText (ctx, key) {
  const content = ctx.inputResponse(key)?.content
  const block = Array.isArray(content) ? content.find((b) => b.type === 'text') : content
  return typeof block?.text === 'string' ? block.text : undefined
}
function rootList (ctx, key) {
  const roots = ctx.inputResponse(key)?.roots
  if (!Array.isArray(roots)) return undefined
  return roots.filter((r) => typeof r.uri === 'string').map((r) => typeof r.name === 'string' ? `${r.uri} (${r.name})` : r.uri)
}
/** A declined or cancelled elicitation among `keys` ends the request: a refusal is an answer. */
function refused (ctx, keys) {
  for (const k of keys) {
    const action = ctx.inputResponse(k)?.action
    if (action === 'decline' || action === 'cancel') return text(`The user chose to ${action} the question (${k})`)
  }
}
const endsOnRefusal = (keys, f) => (args, ctx) => refused(ctx, keys) ?? f(args, ctx)

server.tool('test_sampling', {
  description: "Asks the client's LLM to answer a prompt (sampling/createMessage)",
  inputSchema: { type: 'object', properties: { prompt: { type: 'string', description: 'The prompt to send' } }, required: ['prompt'] },
}, (args, ctx) => {
  const t = sampledText(ctx, 'sample')
  return t !== undefined ? text(`LLM response: ${t}`) : inputRequired({ sample: createMessage(userMessage(args.prompt ?? '', 100)) })
})
server.tool('test_elicitation', {
  description: 'Asks the user for input (elicitation/create)',
  inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'The message to show the user' } }, required: ['message'] },
}, (args, ctx) => {
  const answer = ctx.inputResponse('response')
  return answer ? text(`User response: ${describeElicitation(answer)}`) : inputRequired({ response: elicit(args.message ?? '', stringForm('response', 'Your response')) })
})
tool('test_elicitation_sep1034_defaults', 'Elicitation whose form fields carry default values (SEP-1034)', (_a, ctx) => {
  const answer = ctx.inputResponse('defaults')
  if (answer) return text(`Elicitation completed: ${describeElicitation(answer)}`)
  return inputRequired({
    defaults: elicit('Please review and update the form fields with defaults', {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
    }),
  })
})
const titled = [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }]
tool('test_elicitation_sep1330_enums', 'Elicitation with the five enum variants of SEP-1330', (_a, ctx) => {
  const answer = ctx.inputResponse('enums')
  if (answer) return text(`Elicitation completed: ${describeElicitation(answer)}`)
  return inputRequired({
    enums: elicit('Please select options from the enum fields', {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
        titledSingle: { type: 'string', description: 'Titled single-select', oneOf: titled },
        legacyEnum: { type: 'string', description: 'Legacy titled enum', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', description: 'Untitled multi-select', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: { type: 'array', description: 'Titled multi-select', items: { anyOf: titled } },
      },
    }),
  })
})
tool('test_streaming_elicitation', 'Elicitation without server-to-client requests in the modern era: progress, then an input_required result', (_a, ctx) => {
  ctx.progress(0, 1, 'asking the user')
  const answer = ctx.inputResponse('confirmation')
  if (answer) return text(`Streaming elicitation completed: ${describeElicitation(answer)}`)
  return inputRequired({ confirmation: elicit('Please confirm to continue', stringForm('confirmation', 'Type anything to confirm')) })
})
tool('test_input_required_result_elicitation', "MRTR: asks for the user's name, then greets them", endsOnRefusal(['user_name'], (_a, ctx) => {
  const name = acceptedStr(ctx, 'user_name', 'name')
  return name !== undefined ? text(`Hello, ${name}!`) : inputRequired({ user_name: askName() })
}))
tool('test_input_required_result_sampling', "MRTR: asks the client's LLM for the capital of France", (_a, ctx) => {
  const t = sampledText(ctx, 'capital_question')
  return t !== undefined ? text(`Sampling result: ${t}`) : inputRequired({ capital_question: askCapital() })
})
tool('test_input_required_result_list_roots', "MRTR: asks for the client's roots", (_a, ctx) => {
  const roots = rootList(ctx, 'client_roots')
  return roots ? text(`Client roots: ${roots.join(', ')}`) : inputRequired({ client_roots: listRoots() })
})
tool('test_input_required_result_request_state', 'MRTR: asks for a confirmation and carries a requestState', endsOnRefusal(['confirm'], (_a, ctx) => {
  const ok = accepted(ctx, 'confirm')?.ok
  if (typeof ok === 'boolean' && ctx.requestState === 'state-ok') return text(`Request state verified: state-ok (ok=${ok})`)
  return inputRequired({ confirm: elicit('Please confirm', { type: 'object', properties: { ok: { type: 'boolean', description: 'Confirm' } }, required: ['ok'] }) }, 'state-ok')
}))
tool('test_input_required_result_multiple_inputs', 'MRTR: asks for a name, a sampled greeting and the roots at once', endsOnRefusal(['user_name'], (_a, ctx) => {
  const name = acceptedStr(ctx, 'user_name', 'name')
  const greeting = sampledText(ctx, 'greeting')
  const roots = rootList(ctx, 'client_roots')
  if (name !== undefined && greeting !== undefined && roots && ctx.requestState === 'multiple-inputs') {
    return text(`Hello, ${name}! Greeting: ${greeting}. Roots: ${roots.join(', ')}`)
  }
  return inputRequired({ user_name: askName(), greeting: createMessage(userMessage('Write a short greeting.', 50)), client_roots: listRoots() }, 'multiple-inputs')
}))
const askColor = () => elicit('Step 2: What is your favorite color?', stringForm('color', 'Your favorite color'))
tool('test_input_required_result_multi_round', 'MRTR: asks for a name, then in a second round for a favourite colour', endsOnRefusal(['step1', 'step2'], (_a, ctx) => {
  const s = ctx.requestState
  if (s === 'round-1') {
    const name = acceptedStr(ctx, 'step1', 'name')
    if (name !== undefined) return inputRequired({ step2: askColor() }, `round-2:${name}`)
  } else if (s?.startsWith('round-2:')) {
    const color = acceptedStr(ctx, 'step2', 'color')
    if (color !== undefined) return text(`Hello, ${s.slice('round-2:'.length)}! Your favorite color is ${color}.`)
    return inputRequired({ step2: askColor() }, s)
  }
  return inputRequired({ step1: askName() }, 'round-1')
}))
tool('test_input_required_result_tampered_state', 'MRTR: carries an integrity-protected requestState; a modified one is rejected with -32602', endsOnRefusal(['user_name'], (_a, ctx) => {
  const name = acceptedStr(ctx, 'user_name', 'name')
  if (name !== undefined && ctx.requestState === 'untampered') return text(`State verified, hello ${name}!`)
  return inputRequired({ user_name: askName() }, 'untampered')
}))
tool('test_input_required_result_capabilities', 'MRTR: asks only for the kinds of input the client declared', endsOnRefusal(['user_name'], (_a, ctx) => {
  const wants = { elicit: ctx.hasClientCapability('elicitation', 'form'), sample: ctx.hasClientCapability('sampling'), roots: ctx.hasClientCapability('roots') }
  if (!wants.elicit && !wants.sample && !wants.roots) return text('The client declared no input capability: nothing to ask')
  const parts = []
  let missing = false
  const have = (v, label) => { if (v === undefined) missing = true; else parts.push(`${label}=${v}`) }
  if (wants.elicit) have(acceptedStr(ctx, 'user_name', 'name'), 'name')
  if (wants.sample) have(sampledText(ctx, 'capital_question'), 'sampling')
  if (wants.roots) have(rootList(ctx, 'client_roots')?.join(', '), 'roots')
  if (!missing) return text(`Received: ${parts.join('; ')}`)
  const requests = {}
  if (wants.elicit) requests.user_name = askName()
  if (wants.sample) requests.capital_question = askCapital()
  if (wants.roots) requests.client_roots = listRoots()
  return inputRequired(requests)
}))
server.prompt('test_input_required_result_prompt', { description: 'A prompt that first asks the user for context (MRTR)' }, (_a, ctx) => {
  const context = acceptedStr(ctx, 'user_context', 'context')
  if (context !== undefined) {
    return { description: 'A prompt built from user-provided context', messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }] }
  }
  if (refused(ctx, ['user_context'])) {
    return { description: 'A prompt without user context (the user refused)', messages: [{ role: 'user', content: { type: 'text', text: 'No context was provided.' } }] }
  }
  return inputRequired({ user_context: elicit('What context should the prompt use?', stringForm('context', 'Context for the prompt')) })
})

// --- resources, prompts, completion
const textContents = (uri, mimeType, t) => ({ contents: [{ uri, mimeType, text: t }] })
server.resource('static-text', 'test://static-text', { title: 'Static text', description: 'A static text resource', mimeType: 'text/plain' },
  () => textContents('test://static-text', 'text/plain', 'This is the content of the static text resource.'))
server.resource('static-binary', 'test://static-binary', { title: 'Static binary', description: 'A static binary resource (a 1x1 PNG)', mimeType: 'image/png' },
  () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }] }))
server.resource('watched-resource', 'test://watched-resource', { title: 'Watched resource', description: 'A resource to subscribe to', mimeType: 'text/plain' },
  () => textContents('test://watched-resource', 'text/plain', 'This is the content of the watched resource.'))
server.resourceTemplate('template-data', 'test://template/{id}/data', { title: 'Template data', description: 'Data for an id', mimeType: 'application/json' },
  (uri, { id }) => textContents(uri.href, 'application/json', JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` })))
const userText = (t) => ({ role: 'user', content: { type: 'text', text: t } })
server.prompt('test_simple_prompt', { description: 'A simple prompt without arguments' }, () => ({ messages: [userText('This is a simple prompt for testing.')] }))
server.prompt('test_prompt_with_arguments', {
  description: 'A prompt with two required arguments',
  arguments: [{ name: 'arg1', description: 'First argument', required: true }, { name: 'arg2', description: 'Second argument', required: true }],
}, ({ arg1 = '', arg2 = '' }) => ({ messages: [userText(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`)] }))
server.prompt('test_prompt_with_embedded_resource', {
  description: 'A prompt embedding a resource',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
}, ({ resourceUri }) => {
  if (typeof resourceUri !== 'string') throw new McpError('resourceUri must be a string', { code: -32602 })
  return {
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      userText('Please process the embedded resource above.'),
    ],
  }
})
server.prompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
  messages: [{ role: 'user', content: image }, userText('Please analyze the image above.')],
}))
server.completion((p) => {
  const isArg1 = p.ref?.type === 'ref/prompt' && p.ref?.name === 'test_prompt_with_arguments' && p.argument?.name === 'arg1'
  const prefix = typeof p.argument?.value === 'string' ? p.argument.value : ''
  const values = isArg1 ? ['hello', 'help', 'world', 'paris'].filter((v) => v.startsWith(prefix)) : []
  return { completion: { values, total: values.length, hasMore: false } }
})

// --- transport behaviour and list changes
tool('test_reconnection', 'Closes its SSE response stream mid-call; the result arrives after the client reconnects with Last-Event-ID', async (_a, ctx) => {
  const closed = ctx.closeStream()
  await sleep(100)
  return text(closed
    ? 'Reconnection test completed: the result was delivered on the resumed stream'
    : 'Reconnection test completed: this transport cannot close the stream, so it stayed open')
})
server.tool('test_x_mcp_header', {
  description: 'Echoes its region argument, which clients also send as the Mcp-Param-Region header',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', description: 'A region name, mirrored in the Mcp-Param-Region header', 'x-mcp-header': 'Region' } },
    required: ['region'],
  },
}, ({ region }) => {
  if (typeof region !== 'string') throw new Error('region must be a string')
  return text(`region=${region}`)
})
tool('test_trigger_tool_change', 'Changes the tool list (adds and removes a temporary tool) so that listeners receive notifications/tools/list_changed', () => {
  server.tool('test_dynamic_tool', { description: 'A temporary tool of test_trigger_tool_change', ...noArgs }, () => text('dynamic')).remove()
  return text('Tool list changed')
})
tool('test_trigger_prompt_change', 'Changes the prompt list (adds and removes a temporary prompt) so that listeners receive notifications/prompts/list_changed', () => {
  server.prompt('test_dynamic_prompt', { description: 'A temporary prompt of test_trigger_prompt_change' }, () => ({ messages: [userText('dynamic')] })).remove()
  return text('Prompt list changed')
})

// --- tasks (the tasks-* scenarios)
require('./everything-tasks').register(server)

async function main (args) {
  if (args[0] !== '--http') return server.serveStdio()
  const [host, port] = (args[1] ?? '127.0.0.1:3000').split(/:(?=\d+$)/)
  const http = await server.serveHttp({ host, port: Number(port) })
  process.stderr.write(`listening on ${http.url}\n`)
  await http.closed
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`everything-server: ${e.message}\n`)
    process.exit(1)
  })
}

// everything-mounted.js mounts this server in a web application.
module.exports = { server }
