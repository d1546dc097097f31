'use strict'
// The official TypeScript SDK's example servers (the `examples/server` set of
// @modelcontextprotocol/sdk 1.x, as published in its npm package) ported to libmcp by changing their
// import lines only (`../../server/index.js`, `mcp.js`, `stdio.js`, `streamableHttp.js` and
// `webStandardStreamableHttp.js` become `libmcp/sdk`,
// every other relative import names the SDK's module), each run as published and as ported, driven
// by the SDK's own client the same way, and compared. README.md lists every example, and why the
// ones not run here are not.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const net = require('node:net')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { ElicitRequestSchema, CreateMessageRequestSchema, LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, CallToolResultSchema } = require('@modelcontextprotocol/sdk/types.js')
const { taskStream } = require('./task_stream')

const SDK_DIR = path.join(path.dirname(require.resolve('@modelcontextprotocol/sdk/types.js')), '..', '..')
const EXAMPLES = path.join(SDK_DIR, 'dist', 'esm', 'examples', 'server')
const OURS = new Set(['../../server/index.js', '../../server/mcp.js', '../../server/stdio.js', '../../server/streamableHttp.js', '../../server/webStandardStreamableHttp.js', '../../experimental/tasks/stores/in-memory.js'])

/** The example's source with its imports pointed at libmcp/sdk (the server API) and at the SDK's
 * published modules (everything else); `changed` counts the lines that differ. */
function port (source) {
  let changed = 0
  const out = source.split('\n').map((line) => {
    const m = /^(import .* from )'([^']+)';$/.exec(line)
    if (!m) return line
    const spec = m[2]
    let to = spec
    if (OURS.has(spec)) to = 'libmcp/sdk'
    else if (spec.startsWith('../../')) to = `@modelcontextprotocol/sdk/${spec.slice(6)}`
    else if (spec.startsWith('../')) to = `@modelcontextprotocol/sdk/examples/${spec.slice(3)}`
    else if (spec.startsWith('./')) to = `@modelcontextprotocol/sdk/examples/server/${spec.slice(2)}`
    if (to === spec) return line
    changed += 1
    return `${m[1]}'${to}';`
  })
  return { text: out.join('\n'), changed }
}

const work = fs.mkdtempSync(path.join(__dirname, '.ported-'))
test.after(() => fs.rmSync(work, { recursive: true, force: true }))

/** A module to preload (`--require`) into an example that listens on the fixed port `fixed`: it
 * listens on `PORT` of its environment instead. The example's own code is unchanged. */
function movePort (fixed) {
  const file = path.join(work, `move-port-${fixed}.cjs`)
  fs.writeFileSync(file, [
    "const net = require('node:net')",
    'const listen = net.Server.prototype.listen',
    'net.Server.prototype.listen = function (...args) {',
    `  if (args[0] === ${fixed}) args[0] = Number(process.env.PORT)`,
    '  return listen.apply(this, args)',
    '}',
    '',
  ].join('\n'))
  return file
}

/** Resolves once something accepts connections on `port` of localhost (within 30 s: the examples
 * start side by side, two processes each, and a loaded 2-core machine has taken over 10 s to
 * bring one up). */
async function untilListening (port) {
  for (let i = 0; i < 600; i++) {
    const open = await new Promise((resolve) => {
      const s = net.connect(port, 'localhost', () => { s.destroy(); resolve(true) })
      s.on('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nothing listens on port ${port}`)
}

/** A free TCP port on 127.0.0.1. */
function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/** A deterministic answer to a form elicitation: each property of `requestedSchema` filled from its
 * type, format, enum or bounds. */
function formAnswer (schema) {
  const content = {}
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (p.enum) content[name] = p.enum[0]
    else if (p.oneOf) content[name] = p.oneOf[0].const
    else if (p.type === 'boolean') content[name] = true
    else if (p.type === 'number' || p.type === 'integer') content[name] = p.minimum ?? 1
    else if (p.type === 'array') content[name] = p.items?.enum ? [p.items.enum[0]] : p.items?.anyOf ? [p.items.anyOf[0].const] : []
    else if (p.format === 'email') content[name] = 'ada@example.com'
    else if (p.format === 'date') content[name] = '2030-01-02'
    else content[name] = `${name}-value`.padEnd(p.minLength ?? 0, 'x').slice(0, p.maxLength ?? Infinity)
  }
  return { action: 'accept', content }
}

/** The SDK client, answering elicitation and sampling; `logs` collects log messages. */
function sdkClient (logs) {
  const client = new Client({ name: 'examples-test', version: '1' }, { capabilities: { elicitation: { form: {} }, sampling: {} } })
  client.setRequestHandler(ElicitRequestSchema, (req) => formAnswer(req.params.requestedSchema))
  client.setRequestHandler(CreateMessageRequestSchema, (req) => ({
    role: 'assistant', model: 'echo', content: { type: 'text', text: `summary of ${req.params.messages[0].content.text.length} characters` },
  }))
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params.data) })
  return client
}

/** A tool result without what differs by chance between two runs (set by `random`). */
function callResult (r, random) {
  const out = { content: r.content, isError: r.isError ?? false }
  if (r.structuredContent !== undefined) out.structuredContent = r.structuredContent
  return random ? random(out) : out
}

/** A task stream's statuses and its result as `callResult` gives it. */
function taskResult ({ statuses, result, error }) {
  return result ? { statuses, result: callResult(result, sortedTail) } : { statuses, error }
}

/** A tool result whose texts that end with a JSON object (`...: {`) have its keys sorted (the
 * engine hands objects on with their keys sorted, see README.md). */
function sortedTail (r) {
  const content = r.content.map((c) => {
    const at = c.type === 'text' ? c.text.indexOf(': {') : -1
    if (at < 0) return c
    const sorted = JSON.parse(c.text.slice(at + 2), (_k, v) => v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v)
    return { ...c, text: `${c.text.slice(0, at + 2)}${JSON.stringify(sorted, null, 2)}` }
  })
  return { ...r, content }
}

/** What the SDK's simpleTaskInteractiveClient does with one tool: calls it as a task
 * (`callToolStream` with a ttl) and reads the stream to its end; the statuses it saw, in order,
 * each once, and the result's text (or the error). */
async function interactive (client, name, args) {
  const statuses = []
  let end
  for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60000 } })) {
    if (m.type === 'taskCreated' || m.type === 'taskStatus') {
      if (statuses.at(-1) !== m.task.status) statuses.push(m.task.status)
    } else {
      end = m.type === 'result' ? { result: callResult(m.result) } : { error: String(m.error) }
    }
  }
  return { statuses, ...end }
}

/** The examples run here, each with how it is served and what the client does with it. */
const RUN = {
  'progressExample.js': {
    kind: 'stdio',
    drive: async (c) => {
      const progress = []
      const r = await c.callTool({ name: 'count', arguments: { n: 3 } }, undefined, { onprogress: (p) => progress.push(p) })
      const bad = await c.callTool({ name: 'count', arguments: { n: 0 } })
      return { r: callResult(r), progress, bad: callResult(bad) }
    },
    // Both servers send every step before the result, but the SDK client handles a progress
    // notification in a microtask and the response at once (dropping the request's progress
    // handler): when a loaded machine lets the last notifications and the result reach it in one
    // read, it drops them (seen with either server, all three at times). So each run reports a
    // prefix of the steps to `onprogress`, and what reached the client's transport (`wire`,
    // tapped before the client's handling) is compared whole.
    tapProgress: true,
    settle: (got, want) => {
      const all = [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `Counting: ${i}/3` }))
      assert.deepEqual(want.wire, all)
      assert.deepEqual(got.progress, all.slice(0, got.progress.length))
      assert.deepEqual(want.progress, all.slice(0, want.progress.length))
      delete got.progress
      delete want.progress
    },
  },
  'toolWithSampleServer.js': {
    kind: 'stdio',
    drive: async (c) => ({ r: callResult(await c.callTool({ name: 'summarize', arguments: { text: 'The quick brown fox.' } })) }),
  },
  'mcpServerOutputSchema.js': {
    kind: 'stdio',
    drive: async (c) => {
      const r = await c.callTool({ name: 'get_weather', arguments: { city: 'Oslo', country: 'NO' } })
      // The weather is random: keep its shape.
      const shape = (v) => v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : typeof v
      return { r: { isError: r.isError ?? false, structured: shape(r.structuredContent), text: typeof r.content[0].text } }
    },
  },
  'jsonResponseStreamableHttp.js': {
    kind: 'http',
    // The example listens on port 3000: the preload moves it to a free port.
    fixedPort: 3000,
    env: (port) => ({ PORT: String(port) }),
    // Every POST that carried a request is answered with one JSON body. Both servers drop the log
    // messages `multi-greet` sends (they belong to no request here, and the example refuses the
    // GET stream that would carry them; on libmcp they belong to the request, whose JSON answer
    // has no room for them), so `logs` stays empty on both.
    mediaTypes: true,
    drive: async (c) => ({
      greet: callResult(await c.callTool({ name: 'greet', arguments: { name: 'Ada' } })),
      multi: callResult(await c.callTool({ name: 'multi-greet', arguments: { name: 'Ada' } })),
    }),
  },
  'simpleStatelessStreamableHttp.js': {
    kind: 'http',
    // The SDK's stateless mode: a server and a transport without `sessionIdGenerator` per POST.
    fixedPort: 3000,
    env: (port) => ({ PORT: String(port) }),
    drive: async (c) => ({
      prompt: await c.getPrompt({ name: 'greeting-template', arguments: { name: 'Ada' } }),
      resource: await c.readResource({ uri: 'https://example.com/greetings/default' }),
      stream: callResult(await c.callTool({ name: 'start-notification-stream', arguments: { interval: 10, count: 3 } })),
    }),
    // `server.sendLoggingMessage` names no request: the SDK sends it on the GET stream, which the
    // example refuses (405), so the client sees none; the engine sends it in the request's own
    // stream (see README.md), so the client sees all three.
    settle: (got, want) => {
      assert.deepEqual(want.logs, [])
      assert.deepEqual(got.logs.map((l) => l.replace(/ at .*/, '')), [1, 2, 3].map((i) => `Periodic notification #${i}`))
      delete got.logs
      delete want.logs
    },
  },
  'honoWebStandardStreamableHttp.js': {
    kind: 'http',
    // A server and a web-standard transport without `sessionIdGenerator` per request, in Hono.
    env: (port) => ({ MCP_PORT: String(port) }),
    ready: /MCP endpoint/,
    drive: async (c) => ({ greet: callResult(await c.callTool({ name: 'greet', arguments: { name: 'Ada' } })) }),
  },
  'standaloneSseWithGetStreamableHttp.js': {
    kind: 'http',
    fixedPort: 3000,
    env: (port) => ({ PORT: String(port) }),
    // The server registers a resource named by a random UUID every 5 s and announces it on the
    // session's GET stream: wait for the next announcement, then list again.
    drive: async (c) => {
      await new Promise((resolve) => c.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()))
      const after = (await c.listResources()).resources
      const masked = JSON.stringify(after[1]).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
      return { first: after[0], added: JSON.parse(masked) }
    },
  },
  'ssePollingExample.js': {
    kind: 'http',
    fixedPort: 3001,
    env: (port) => ({ PORT: String(port) }),
    resumes: true,
    // The tool closes its request's stream halfway (`extra.closeSSEStream`); the client reconnects
    // with Last-Event-ID and gets the rest: all four log messages and the result, on both.
    drive: async (c) => ({ r: callResult(await c.callTool({ name: 'long-task', arguments: {} })) }),
    settle: (got, want) => {
      const all = ['25% - Starting work...', '50% - Halfway there...', '75% - Almost done (sent while client disconnected)...', '100% - Complete!'].map((m) => `Progress: ${m}`)
      assert.deepEqual(want.logs, all)
      assert.deepEqual(got.logs, all)
      assert.equal(want.resumed, 1, 'the SDK client resumed once')
    },
  },
  'simpleStreamableHttp.js': {
    kind: 'http',
    env: (port) => ({ MCP_PORT: String(port) }),
    // Two tools of the SDK's experimental tasks (`registerToolTask`, the SDK's in-memory task store
    // on one side, libmcp/sdk's on the other), called as tasks by the client's `callToolStream`.
    drive: async (c) => ({
      greet: callResult(await c.callTool({ name: 'greet', arguments: { name: 'Ada' } })),
      multi: callResult(await c.callTool({ name: 'multi-greet', arguments: { name: 'Ada' } })),
      collect: callResult(await c.callTool({ name: 'collect-user-info', arguments: { infoType: 'feedback' } }), sortedTail),
      files: callResult(await c.callTool({ name: 'list-files', arguments: {} })),
      prompt: await c.getPrompt({ name: 'greeting-template', arguments: { name: 'Ada' } }),
      resource: await c.readResource({ uri: 'file:///example/file1.txt' }),
      delay: taskResult(await taskStream(c, 'delay', { duration: 50 })),
      collectTask: taskResult(await taskStream(c, 'collect-user-info-task', { infoType: 'preferences' })),
    }),
    // `collect-user-info-task` elicits from its task's work: the SDK sends that request on the
    // session's GET stream and its task stays `working`; the engine asks as the task's input round,
    // so a client that polls meanwhile sees `input_required` (and takes the result from
    // `tasks/result`).
    settle: (got, want) => {
      assert.deepEqual(want.collectTask.statuses, ['working', 'completed'])
      assert.ok(['working,completed', 'working,input_required'].includes(got.collectTask.statuses.join()), got.collectTask.statuses.join())
      delete got.collectTask.statuses
      delete want.collectTask.statuses
    },
  },
  'simpleTaskInteractive.js': {
    kind: 'http',
    fixedPort: 8000,
    env: (port) => ({ PORT: String(port) }),
    ready: /Starting server/,
    // The low-level Server answering tools/list, tools/call (a task, from its own task store),
    // tasks/get and tasks/result itself; its tasks/result sends the elicitation and the sampling
    // request its task queued and waits for their answers (the flow of the SDK's
    // simpleTaskInteractiveClient.js: the client answers both).
    drive: async (c) => ({
      confirm: await interactive(c, 'confirm_delete', { filename: 'important.txt' }),
      haiku: await interactive(c, 'write_haiku', { topic: 'autumn leaves' }),
    }),
    // The task's work sets `input_required` as soon as it starts. The SDK's tools/call answer is
    // written after that (its store hands out the task it then changes), so the client's first
    // status is `input_required`; libmcp/sdk's store hands out a copy taken at creation, so the
    // client may see `working` first. The results are compared whole.
    settle: (got, want) => {
      for (const run of [got, want]) {
        for (const call of [run.confirm, run.haiku]) {
          assert.ok(['input_required', 'working,input_required'].includes(call.statuses.join()), call.statuses.join())
          delete call.statuses
        }
      }
    },
  },
  'elicitationFormExample.js': {
    kind: 'http',
    env: (port) => ({ PORT: String(port) }),
    drive: async (c) => {
      const out = {}
      for (const [name, args] of [['register_user', {}], ['create_event', {}], ['update_shipping_address', {}]]) {
        out[name] = callResult(await c.callTool({ name, arguments: args }))
      }
      return out
    },
  },
}

/** Starts example `file` (a path) as published or ported and connects the SDK client to it;
 * resolves to `{client, logs, stop()}`. */
async function start (file, spec) {
  const logs = []
  const client = sdkClient(logs)
  if (spec.kind === 'stdio') {
    const transport = new StdioClientTransport({ command: process.execPath, args: [file], stderr: 'ignore' })
    // Some examples print a line on stdout; the SDK client reports it as an error and goes on.
    transport.onerror = () => {}
    await client.connect(transport)
    // The progress notifications as they reach the transport, before the client handles them.
    const wire = []
    const deliver = transport.onmessage
    transport.onmessage = (message, extra) => {
      if (message.method === 'notifications/progress') {
        const { progressToken, ...p } = message.params
        wire.push(p)
      }
      deliver(message, extra)
    }
    return { client, logs, wire, stop: () => client.close() }
  }
  const port = await freePort()
  const args = spec.fixedPort ? ['--require', movePort(spec.fixedPort), file] : [file]
  const child = spawn(process.execPath, args, { env: { ...process.env, ...spec.env(port) }, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise((resolve, reject) => {
    let seen = ''
    child.stdout.on('data', (d) => {
      seen += d
      if ((spec.ready ?? /running|listening/i).test(seen)) resolve()
    })
    child.on('exit', (code) => reject(new Error(`${path.basename(file)} exited with ${code}: ${seen}`)))
  })
  // The media type of each answer to a POST that carried a request (200), with `mediaTypes`.
  const mediaTypes = []
  // The resumptions (a GET with Last-Event-ID answered 200), with `resumes`.
  const resumed = []
  const fetchSeen = async (url, init) => {
    const r = await fetch(url, init)
    if (init?.method === 'POST' && r.status === 200) mediaTypes.push((r.headers.get('content-type') ?? '').split(';')[0])
    if (init?.method === 'GET' && r.status === 200 && new Headers(init.headers).has('last-event-id')) resumed.push(true)
    return r
  }
  // An example may print its banner before it listens. One that never does is stopped, or this
  // file's process would wait for it.
  try {
    await untilListening(port)
  } catch (e) {
    child.kill()
    throw e
  }
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost:${port}/mcp`), spec.mediaTypes || spec.resumes ? { fetch: fetchSeen } : {})
  await client.connect(transport)
  return {
    client,
    logs,
    mediaTypes,
    resumed,
    stop: async () => {
      await transport.terminateSession().catch(() => {})
      await client.close()
      child.kill()
    },
  }
}

/** What the client sees of a running example: its lists and what `spec.drive` collects. */
async function transcript (file, spec) {
  const { client, logs, mediaTypes, resumed, wire, stop } = await start(file, spec)
  try {
    const caps = client.getServerCapabilities()
    const out = {
      info: client.getServerVersion(),
      tools: caps.tools ? (await client.listTools()).tools : [],
      prompts: caps.prompts ? (await client.listPrompts()).prompts : [],
      resources: caps.resources ? (await client.listResources()).resources : [],
      ...(await spec.drive(client)),
    }
    out.logs = logs
    if (spec.mediaTypes) {
      assert.ok(mediaTypes.length >= 3 && mediaTypes.every((t) => t === 'application/json'), `${path.basename(file)}: ${mediaTypes}`)
      out.mediaTypes = mediaTypes
    }
    if (spec.resumes) out.resumed = resumed.length
    if (spec.tapProgress) out.wire = wire
    return out
  } finally {
    await stop()
  }
}

/** `v` with every object's keys sorted, also those of a JSON object printed at the end of a text
 * (the engine hands objects on with their keys sorted, see README.md). */
function sortKeys (v) {
  const sorted = (x) => x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x
  return JSON.parse(JSON.stringify(v, (k, x) => {
    if (k !== 'text' || typeof x !== 'string') return sorted(x)
    const at = x.indexOf('\n{')
    if (at < 0) return x
    try {
      return x.slice(0, at + 1) + JSON.stringify(JSON.parse(x.slice(at + 1), (_k, y) => sorted(y)), null, 2)
    } catch {
      return x
    }
  }))
}

test('every example of the SDK is accounted for', () => {
  const listed = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8')
  for (const f of fs.readdirSync(EXAMPLES).filter((n) => n.endsWith('.js'))) {
    assert.ok(listed.includes(`| \`${f.replace(/\.js$/, '')}\``), `README.md's table lists ${f}`)
  }
})

// The examples run side by side (each is mostly waiting on its processes).
test('the SDK examples, ported by their import lines', { concurrency: true }, async (t) => {
  await Promise.all(Object.entries(RUN).map(([name, spec]) => t.test(name, async () => {
    const original = path.join(EXAMPLES, name)
    const { text, changed } = port(fs.readFileSync(original, 'utf8'))
    assert.ok(changed > 0)
    const ported = path.join(work, name.replace(/\.js$/, '.mjs'))
    fs.writeFileSync(ported, text)
    const [want, got] = await Promise.all([transcript(original, spec), transcript(ported, spec)])
    if (spec.settle) spec.settle(got, want)
    assert.deepEqual(sortKeys(got), sortKeys(want))
  })))
})
