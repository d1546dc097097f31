'use strict'
// The client side of `libmcp/sdk`: `Client`, `StdioClientTransport` and
// `StreamableHTTPClientTransport` named and called as the official TypeScript SDK's (1.x), on this
// package's Client (lib/client.js), so that client code written for the SDK changes its import
// lines. The engine owns the connection: the transports only say where to connect, and handlers
// set with `setRequestHandler` / `setNotificationHandler` become the engine client's handlers.

const { Client: NativeShapedClient, clean } = require('../client')
const { McpError, ErrorCode } = require('../errors')
const native = require('../native')
const { ClientTasks } = require('./client_tasks')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** `params` of a call, which the SDK requires: an object with only `keys`. */
function paramsOf (v, what, keys) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${what} params must be an object, got ${describe(v)}`)
  for (const key of Object.keys(v)) {
    if (!keys.includes(key)) throw new TypeError(`${what}: ${key} is not supported by libmcp/sdk (params: ${keys.join(', ')})`)
  }
  return v
}

function objectOr (v, what, fallback) {
  if (v === undefined) return fallback
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${what} must be an object, got ${describe(v)}`)
  return v
}

/** The method a request or notification schema of the SDK (`ElicitRequestSchema`, ...) stands
 * for: its `method` field's literal, in Zod 3 and Zod 4 alike. */
function methodOf (schema, what) {
  const literal = schema && schema.shape && schema.shape.method
  const method = literal && literal.value
  if (typeof method !== 'string') {
    throw new TypeError(`${what}: the schema must be an object schema whose method is a literal (as the SDK's ElicitRequestSchema), got ${describe(schema)}`)
  }
  return method
}

/** The request methods a client answers and the capability each needs (`setRequestHandler`). */
const ANSWERED = new Map([
  ['elicitation/create', ['elicitation', 'onElicitation']],
  ['sampling/createMessage', ['sampling', 'onSampling']],
  ['roots/list', ['roots', 'onRoots']],
])

/** Spawns a server and talks to it over its stdin/stdout: `{command, args, env, cwd, stderr}`.
 * `stderr` is `'inherit'` (the default) or `'ignore'`. */
class StdioClientTransport {
  #params
  constructor (params) {
    paramsOf(params, 'StdioClientTransport', ['command', 'args', 'env', 'cwd', 'stderr'])
    if (typeof params.command !== 'string' || params.command === '') throw new TypeError(`command must be a non-empty string, got ${describe(params.command)}`)
    if (params.stderr !== undefined && params.stderr !== 'inherit' && params.stderr !== 'ignore') {
      throw new TypeError(`StdioClientTransport: stderr must be 'inherit' or 'ignore' (the engine reads the child's stderr itself), got ${typeof params.stderr === 'string' ? JSON.stringify(params.stderr) : describe(params.stderr)}`)
    }
    this.#params = params
    this.onclose = undefined
    this.onerror = undefined
  }

  /** How `Client.connect` connects (this package's own options). */
  options () {
    const p = this.#params
    return { command: p.command, args: p.args ?? [], env: p.env, cwd: p.cwd, stderr: p.stderr }
  }
}

/** Headers of a `requestInit` (a Headers, an array of pairs or an object) as an object. */
function headerObject (headers) {
  if (headers === undefined) return undefined
  const out = {}
  const pairs = typeof headers.entries === 'function' && !Array.isArray(headers) ? headers.entries() : Array.isArray(headers) ? headers : Object.entries(headers)
  for (const [name, value] of pairs) out[name] = String(value)
  return out
}

/** Streamable HTTP to `url` (a URL or a string). `options.requestInit.headers` go with every
 * request; `reconnectionOptions` is checked and not used (the engine reconnects by its own rules).
 * `authProvider`, `fetch` and `sessionId` are refused: OAuth is the engine's (this package's
 * `Client.connectHttp(url, {oauth})`), and so are requests and sessions. */
class StreamableHTTPClientTransport {
  #url
  #headers
  constructor (url, options = {}) {
    if (!(url instanceof URL) && typeof url !== 'string') throw new TypeError(`url must be a URL or a string, got ${describe(url)}`)
    objectOr(options, 'StreamableHTTPClientTransport options', {})
    for (const key of ['authProvider', 'fetch', 'sessionId']) {
      if (options[key] !== undefined) {
        throw new TypeError(`StreamableHTTPClientTransport: ${key} is not supported by libmcp/sdk (the engine makes the requests, keeps the session and does OAuth: see Client.connectHttp in libmcp's README)`)
      }
    }
    const init = objectOr(options.requestInit, 'requestInit', {})
    objectOr(options.reconnectionOptions, 'reconnectionOptions', {})
    this.#url = new URL(url)
    this.#headers = headerObject(init.headers)
    this.onclose = undefined
    this.onerror = undefined
    /** The legacy session's id is the engine's and not exposed. */
    this.sessionId = undefined
  }

  options () {
    return { url: this.#url.href, headers: this.#headers }
  }
}

/** The SDK's `onprogress` argument: the progress params without the token and without the fields
 * the server left out. */
function progressOf (p) {
  const out = { progress: p.progress }
  if (p.total !== null && p.total !== undefined) out.total = p.total
  if (p.message !== null && p.message !== undefined) out.message = p.message
  return out
}

/** `result` parsed by `schema` (a Zod schema: the SDK's result schemas, or the caller's) when one
 * is given; a result the schema refuses rejects with Zod's error, as the SDK's `request` does. */
function parsed (result, schema) {
  if (schema === undefined) return result
  if (schema === null || typeof schema.safeParse !== 'function') throw new TypeError(`resultSchema must be a Zod schema, got ${describe(schema)}`)
  const r = schema.safeParse(result)
  if (!r.success) throw r.error
  return r.data
}

/** Call options of the SDK (`{signal, timeout, onprogress}`) as this package's. */
function callOptions (options) {
  const o = objectOr(options, 'request options', {})
  const out = {}
  if (o.signal !== undefined) out.signal = o.signal
  if (o.timeout !== undefined) out.timeout = o.timeout
  if (o.onprogress !== undefined) {
    if (typeof o.onprogress !== 'function') throw new TypeError(`onprogress must be a function, got ${describe(o.onprogress)}`)
    out.onprogress = (p) => o.onprogress(progressOf(p))
  }
  return out
}

/** An MCP client with the SDK's `Client` API. */
class Client {
  #info
  #capabilities
  #requests = new Map()
  #notifications = new Map()
  #client = null
  /** A 2026-07-28 server's `subscriptions/listen` stream per URI given to `subscribeResource`. */
  #listens = new Map()

  /** `clientInfo`: `{name, version}`; `options.capabilities` declares what the client answers
   * (`elicitation`, `sampling`, `roots`), each needing its request handler. */
  constructor (clientInfo, options = {}) {
    if (clientInfo === null || typeof clientInfo !== 'object' || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      throw new TypeError('clientInfo must be {name, version} (strings)')
    }
    objectOr(options, 'Client options', {})
    this.#info = clientInfo
    this.#capabilities = objectOr(options.capabilities, 'capabilities', {})
    this.onclose = undefined
    this.onerror = undefined
    /** Called with each notification no handler was set for. */
    this.fallbackNotificationHandler = undefined
  }

  /** Answers `elicitation/create`, `sampling/createMessage` or `roots/list` (given as the SDK's
   * request schema) with `handler(request)`, `request` being `{method, params}`. Set before
   * `connect`: the engine client is made with its handlers. */
  setRequestHandler (schema, handler) {
    const method = methodOf(schema, 'setRequestHandler')
    if (typeof handler !== 'function') throw new TypeError(`setRequestHandler: handler must be a function, got ${describe(handler)}`)
    if (this.#client !== null) throw new Error('setRequestHandler after connect: libmcp/sdk makes the connection with its handlers, so set them before connect()')
    const answered = ANSWERED.get(method)
    if (answered === undefined) {
      throw new Error(`setRequestHandler: a client of libmcp answers ${[...ANSWERED.keys()].join(', ')} (and ping, itself), not ${method}`)
    }
    if (this.#capabilities[answered[0]] === undefined) {
      throw new Error(`Client does not support ${answered[0]} capability (required for ${method}): declare it in new Client(info, {capabilities})`)
    }
    this.#requests.set(method, handler)
  }

  /** Calls `handler(notification)` (`{method, params}`) for each notification of the schema's
   * method; may be set at any time. */
  setNotificationHandler (schema, handler) {
    const method = methodOf(schema, 'setNotificationHandler')
    if (typeof handler !== 'function') throw new TypeError(`setNotificationHandler: handler must be a function, got ${describe(handler)}`)
    this.#notifications.set(method, handler)
  }

  #notify (method, params) {
    const handler = this.#notifications.get(method) ?? this.fallbackNotificationHandler
    if (handler === undefined) return
    const notification = params === undefined || params === null ? { method } : { method, params }
    Promise.resolve().then(() => handler(notification)).catch((e) => { if (this.onerror) this.onerror(e) })
  }

  /** Connects through `transport` (a `StdioClientTransport` or `StreamableHTTPClientTransport`
   * of `libmcp/sdk`). The engine probes the server's era: a 2026-07-28 server is spoken to in
   * that era, an older one with the 2025-11-25 handshake. */
  async connect (transport) {
    if (!(transport instanceof StdioClientTransport) && !(transport instanceof StreamableHTTPClientTransport)) {
      throw new TypeError(`connect: transport must be a StdioClientTransport or StreamableHTTPClientTransport of libmcp/sdk (the engine makes the connection), got ${describe(transport)}${transport && transport.constructor ? ` (${transport.constructor.name})` : ''}`)
    }
    if (this.#client !== null) throw new Error('this client is connected already')
    const opts = { ...transport.options(), name: this.#info.name, version: this.#info.version }
    for (const [method, [, option]] of ANSWERED) {
      const handler = this.#requests.get(method)
      if (handler !== undefined) opts[option] = (params) => handler({ method, params })
    }
    opts.onNotification = (method, params) => this.#notify(method, params)
    opts.onError = (e) => {
      if (this.onerror) this.onerror(e)
      else if (transport.onerror) transport.onerror(e)
    }
    this.#client = await NativeShapedClient.connect(opts)
    this.transport = transport
  }

  #connected () {
    if (this.#client === null) throw new Error('not connected: call connect(transport) first')
    return this.#client
  }

  /** This package's `Client` underneath, once connected (`subscribe`, `request`, tasks, skills). */
  get native () { return this.#client ?? undefined }

  /** The server's capabilities, implementation (`{name, version, ...}`) and instructions. */
  getServerCapabilities () { return this.#client?.serverCapabilities ?? undefined }
  getServerVersion () { return this.#client?.serverInfo ?? undefined }
  getInstructions () { return this.#client?.instructions ?? undefined }

  /** One page of a list (`params.cursor` for the next): `{tools, nextCursor?}` and friends. */
  async #page (method, params, options) {
    const p = objectOr(params, `${method} params`, {})
    return clean(await this.#connected().request(method, p, callOptions(options)), false)
  }

  /** The tools' output schemas as the last `listTools` gave them, compiled by the engine's
   * validator: `callTool` checks `structuredContent` against them, as the SDK's client does. */
  #outputSchemas = new Map()
  /** The tools' `execution.taskSupport` as the last `listTools` gave them (client_tasks.js). */
  #taskSupport = new Map()
  #experimental = {
    tasks: new ClientTasks({
      native: () => this.#connected(),
      options: callOptions,
      request: (request, schema, options) => this.request(request, schema, options),
      parsed,
      result: (name, r, schema) => {
        const out = parsed(clean(r, false), schema)
        this.#checkOutput(name, out)
        return out
      },
      taskSupport: (name) => this.#taskSupport.get(name),
      McpError,
      ErrorCode,
    }),
  }

  /** The SDK's experimental task calls (`tasks.callToolStream`, `requestStream`, `getTask`, ...:
   * client_tasks.js). */
  get experimental () { return this.#experimental }

  async listTools (params, options) {
    const page = await this.#page('tools/list', params, options)
    // As the SDK: each listing replaces what the last one said (a page at a time).
    this.#outputSchemas.clear()
    this.#taskSupport.clear()
    for (const tool of Array.isArray(page.tools) ? page.tools : []) {
      if (tool && typeof tool.name === 'string' && tool.outputSchema !== undefined) {
        this.#outputSchemas.set(tool.name, tool.outputSchema)
      }
      if (tool && typeof tool.name === 'string' && tool.execution?.taskSupport !== undefined) {
        this.#taskSupport.set(tool.name, tool.execution.taskSupport)
      }
    }
    return page
  }

  /** Checks a tool's result against the output schema its listing gave, as the SDK's client does
   * (the engine's JSON Schema validator in place of the SDK's Ajv: its messages differ). */
  #checkOutput (name, result) {
    const schema = this.#outputSchemas.get(name)
    if (schema === undefined) return
    if (!result.structuredContent && !result.isError) {
      throw new McpError(ErrorCode.InvalidRequest, `Tool ${name} has an output schema but did not return structured content`)
    }
    if (!result.structuredContent) return
    let why
    try {
      if (!(schema instanceof native.NativeJsonSchema)) {
        const compiled = new native.NativeJsonSchema(JSON.stringify(schema))
        this.#outputSchemas.set(name, compiled)
        why = compiled.check(JSON.stringify(result.structuredContent))
      } else {
        why = schema.check(JSON.stringify(result.structuredContent))
      }
    } catch (e) {
      throw new McpError(ErrorCode.InvalidParams, `Failed to validate structured content: ${e instanceof Error ? e.message : String(e)}`)
    }
    if (why !== null) {
      throw new McpError(ErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${why}`)
    }
  }

  listResources (params, options) { return this.#page('resources/list', params, options) }
  listResourceTemplates (params, options) { return this.#page('resources/templates/list', params, options) }
  listPrompts (params, options) { return this.#page('prompts/list', params, options) }

  /** `callTool({name, arguments, _meta?}, resultSchema?, options?)`: the CallToolResult (a tool
   * error is a result with `isError`), parsed by `resultSchema` when given (the SDK's
   * `CallToolResultSchema` or another Zod schema); `structuredContent` is checked against the
   * tool's `outputSchema` from the last `listTools`. A tool listed with `taskSupport: 'required'`
   * is refused as the SDK refuses it: `experimental.tasks.callToolStream` calls it. */
  async callTool (params, resultSchema, options) {
    const p = paramsOf(params, 'callTool', ['name', 'arguments', '_meta'])
    const client = this.#connected()
    if (this.#taskSupport.get(p.name) === 'required') {
      throw new McpError(ErrorCode.InvalidRequest, `Tool "${p.name}" requires task-based execution. Use client.experimental.tasks.callToolStream() instead.`)
    }
    let result
    if (p._meta === undefined) {
      result = await client.callTool(p.name, p.arguments ?? {}, callOptions(options))
    } else {
      objectOr(p._meta, 'callTool _meta', {})
      const call = { name: p.name, arguments: p.arguments ?? {}, _meta: p._meta }
      result = clean(await client.call('tools/call', call, callOptions(options)), false)
    }
    result = parsed(result, resultSchema)
    this.#checkOutput(p.name, result)
    return result
  }

  /** Sends `request` (`{method, params?}`) and resolves to its result parsed by `resultSchema` (a
   * Zod schema, as the SDK's), answering input requests as every call does. */
  async request (request, resultSchema, options) {
    if (request === null || typeof request !== 'object' || typeof request.method !== 'string') {
      throw new TypeError(`request must be {method, params?}, got ${describe(request)}`)
    }
    if (resultSchema === undefined) throw new TypeError('request: resultSchema is required (a Zod schema, as the SDK\'s ResultSchema)')
    const params = objectOr(request.params, `${request.method} params`, {})
    return parsed(clean(await this.#connected().call(request.method, params, callOptions(options)), false), resultSchema)
  }

  /** Sets the level of the log messages a 2025-11-25 server sends (`logging/setLevel`). A
   * 2026-07-28 server has no such request: each request asks for a level itself, and this client
   * asks for none (see the README), so there it throws naming that. */
  async setLoggingLevel (level, options) {
    const client = this.#connected()
    if (typeof level !== 'string') throw new TypeError(`setLoggingLevel: level must be a string, got ${describe(level)}`)
    if (client.era === 'modern') {
      throw new Error('setLoggingLevel: a 2026-07-28 server has no logging/setLevel (each request asks for its own level) and libmcp/sdk\'s Client asks for none; this package\'s Client.connect*({logLevel}) asks for one')
    }
    return clean(await client.request('logging/setLevel', { level }, callOptions(options)), false)
  }

  /** `resources/subscribe` on a 2025-11-25 server: its `notifications/resources/updated` then reach
   * the handler set for them. A 2026-07-28 server is followed by a `subscriptions/listen` stream
   * instead (this package's `subscribe`), whose notifications reach the same handlers; it resolves
   * to `{}` once the server acknowledged the stream. */
  async subscribeResource (params, options) {
    const p = paramsOf(params, 'subscribeResource', ['uri'])
    const client = this.#connected()
    if (client.era !== 'modern') return clean(await client.request('resources/subscribe', p, callOptions(options)), false)
    if (!this.#listens.has(p.uri)) {
      const sub = await client.subscribe({ resourceSubscriptions: [p.uri] })
      this.#listens.set(p.uri, sub)
      // The engine client hands the stream's notifications to `onNotification` as well, which
      // calls the handlers: the subscription's own queue is only drained.
      ;(async () => {
        for (let n = await sub.next(); n !== undefined; n = await sub.next());
      })().catch((e) => { if (this.onerror) this.onerror(e) })
    }
    return {}
  }

  /** Ends what `subscribeResource` began for `params.uri`. */
  async unsubscribeResource (params, options) {
    const p = paramsOf(params, 'unsubscribeResource', ['uri'])
    const client = this.#connected()
    if (client.era !== 'modern') return clean(await client.request('resources/unsubscribe', p, callOptions(options)), false)
    const sub = this.#listens.get(p.uri)
    this.#listens.delete(p.uri)
    if (sub !== undefined) await sub.close()
    return {}
  }

  /** The SDK sends any notification with it; the engine client sends the protocol's own
   * (`initialized`, `cancelled`, `roots/list_changed`) and has no way to send others, so this
   * throws naming that. */
  async notification (notification) {
    throw new Error(`notification: libmcp/sdk's Client cannot send ${notification && typeof notification.method === 'string' ? notification.method : 'a notification'}: the engine client sends the protocol's own notifications itself and no others`)
  }

  readResource (params, options) {
    const p = paramsOf(params, 'readResource', ['uri'])
    return this.#connected().readResource(p.uri, callOptions(options))
  }

  getPrompt (params, options) {
    const p = paramsOf(params, 'getPrompt', ['name', 'arguments'])
    return this.#connected().getPrompt(p.name, p.arguments ?? {}, callOptions(options))
  }

  complete (params, options) {
    return this.#connected().complete(params, callOptions(options))
  }

  ping (options) {
    return this.#connected().ping(callOptions(options))
  }

  /** Closes the connection (a spawned server is stopped); `onclose` is called. */
  async close () {
    const client = this.#client
    if (client === null) return
    this.#client = null
    for (const sub of this.#listens.values()) await sub.close()
    this.#listens.clear()
    await client.close()
    if (this.onclose) this.onclose()
    if (this.transport && this.transport.onclose) this.transport.onclose()
  }
}

module.exports = { Client, StdioClientTransport, StreamableHTTPClientTransport }
