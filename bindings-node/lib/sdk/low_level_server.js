'use strict'
// The official TypeScript SDK's low-level `Server` (`@modelcontextprotocol/sdk/server/index.js`) on
// this package's Server: `new Server(serverInfo, {capabilities, instructions})`,
// `setRequestHandler(RequestSchema, (request, extra) => result)` for a method the specification does
// not define or a feature method it lets a host answer (`tools/call`, `tasks/get`, ...: the rules
// are the engine's, core/src/server/owned.rs), `connect(transport)`, and the calls a handler makes
// on it (`elicitInput`, `createMessage`, `listRoots`, `sendLoggingMessage`, `notification`, the
// list-changed announcements). `McpServer.server` is one too, over the McpServer's own server.
// Deliberate differences are listed in README.md.

const { Server: PackageServer } = require('../server')
const { McpError, ErrorCode } = require('../errors')
const native = require('../native')
const { runWithExtra, current, notify } = require('./extra')
const { completionNotifier } = require('./url_elicitation')
const { ExperimentalServerTasks } = require('./tasks')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** Checks an accepted elicitation answer against the schema asked with (the engine's JSON Schema
 * validator, where the SDK's is Ajv: the reasons are worded differently). The engine cannot make
 * this check itself on 2026-07-28 requests: it keeps nothing of what a handler asked between input
 * rounds, and only the handler, run again, asks with the schema again. */
function checkElicited (schema, content) {
  let why
  try {
    why = new native.NativeJsonSchema(JSON.stringify(schema)).check(JSON.stringify(content))
  } catch (e) {
    throw new McpError(ErrorCode.InternalError, `Error validating elicitation response: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (why !== null) throw new McpError(ErrorCode.InvalidParams, `Elicitation response content does not match requested schema: ${why}`)
}

/** The method a request schema names (its `method` literal, in Zod 3 and Zod 4). */
function methodOf (schema) {
  const literal = schema && typeof schema.parse === 'function' && schema.shape && schema.shape.method
  const method = literal && (literal.value ?? (literal._zod && literal._zod.def.values && literal._zod.def.values[0]))
  if (typeof method !== 'string') throw new TypeError('setRequestHandler: schema must be a Zod object schema whose method is a string literal')
  return method
}

/** A thrown error with a JSON-RPC code (the SDK's own `McpError` among them) as this package's
 * McpError with that code and the same message, as the SDK's Protocol answers any error whose
 * `code` is an integer; anything else as it is (-32603). */
function codeKept (e) {
  if (e instanceof McpError || e === null || typeof e !== 'object' || !Number.isSafeInteger(e.code)) return e
  return new McpError(String(e.message), { code: e.code, data: e.data })
}

/** The SDK's Server options this package has no counterpart for: refused by name rather than
 * ignored. */
const UNSUPPORTED = {
  taskStore: 'answer tasks/get, tasks/result, tasks/list and tasks/cancel with setRequestHandler, or use McpServer\'s experimental.tasks',
  taskMessageQueue: 'answer tasks/result with setRequestHandler, or use McpServer\'s experimental.tasks',
  jsonSchemaValidator: 'the engine validates with its own JSON Schema validator',
}

/** Marks the construction of the Server an McpServer hands its handlers (`mcpServer.server`). */
const OF_MCP_SERVER = Symbol('of McpServer')

/** A low-level MCP server with the official TypeScript SDK's `Server` API. `serverInfo` is `{name,
 * version, ...}`; `options`: `capabilities` (declared as given: the methods answered with
 * `setRequestHandler` need theirs), `instructions`, and any option of this package's `Server`. */
class Server {
  #owner
  #transport = null
  /** False for an McpServer's (`mcpServer.server`): the engine announces its registrations, and
   * its handlers take input rounds. True for a Server of its own: its handlers answer the lists
   * (so the list-changed calls announce) and wait for the client's answers on legacy sessions. */
  #standalone
  constructor (serverInfo, options = {}) {
    if (serverInfo === OF_MCP_SERVER) {
      this.#owner = options
      this.#standalone = false
      return
    }
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}`)
    const { capabilities, enforceStrictCapabilities, debouncedNotificationMethods, ...rest } = options
    for (const [key, why] of Object.entries(UNSUPPORTED)) {
      if (rest[key] !== undefined) throw new TypeError(`libmcp/sdk's Server does not take the ${key} option: ${why}`)
    }
    if (enforceStrictCapabilities) throw new TypeError('libmcp/sdk\'s Server does not take enforceStrictCapabilities: the engine checks the client\'s capabilities before every request it sends')
    if (debouncedNotificationMethods !== undefined) throw new TypeError('libmcp/sdk\'s Server does not take debouncedNotificationMethods: the engine sends each list change once per change')
    this.#owner = new PackageServer(serverInfo, rest)
    this.#standalone = true
    if (capabilities !== undefined) this.registerCapabilities(capabilities)
  }

  /** This package's Server underneath. */
  get native () { return this.#owner }

  #request (method, params, what) {
    const run = current.getStore()
    if (run === undefined) return Promise.reject(new Error(`server.${what}() can only be called while a handler runs (this package sends requests to the client as input rounds of a request)`))
    return run.rounds.request(params === undefined ? { method } : { method, params })
  }

  /** Asks the client for input (`elicitation/create`; form mode unless `params.mode` says URL).
   * An accepted form answer is checked against `requestedSchema`, as the SDK's elicitInput checks
   * it: one that does not match rejects with -32602. */
  async elicitInput (params) {
    const p = params && params.mode === undefined && params.url === undefined ? { mode: 'form', ...params } : params
    const result = await this.#request('elicitation/create', p, 'elicitInput')
    if (p && p.mode === 'form' && p.requestedSchema && result && result.action === 'accept' && result.content) {
      checkElicited(p.requestedSchema, result.content)
    }
    return result
  }

  /** A function that sends `notifications/elicitation/complete` for `elicitationId` to the
   * request's session whenever it is called (see lib/sdk/url_elicitation.js). Throws when the
   * client lacks URL elicitation, and `NoSessionError` for a 2026-07-28 request. */
  createElicitationCompletionNotifier (elicitationId) {
    return completionNotifier(current.getStore(), elicitationId)
  }

  /** Asks the client to sample (`sampling/createMessage`). */
  createMessage (params) {
    return this.#request('sampling/createMessage', params, 'createMessage')
  }

  /** Asks the client for its roots (`roots/list`). */
  listRoots (params) {
    return this.#request('roots/list', params, 'listRoots')
  }

  /** The client's capabilities, while a handler runs. */
  getClientCapabilities () {
    const run = current.getStore()
    return run && run.ctx.clientCapabilities
  }

  /** The client's implementation object, while a handler runs. */
  getClientVersion () {
    const run = current.getStore()
    return run && run.ctx.clientInfo
  }

  /** Sends `notifications/message` in the request being handled (if the client asked for the
   * level). */
  sendLoggingMessage (params) {
    return this.notification({ method: 'notifications/message', params })
  }

  /** Sends a notification in the request being handled (see `notify` in extra.js). */
  notification (n) {
    const run = current.getStore()
    if (run === undefined) {
      if (n && n.method === 'notifications/resources/updated') return this.sendResourceUpdated(n.params)
      return Promise.reject(new Error('notifications other than resources/updated can only be sent while a handler runs'))
    }
    try {
      notify(run.ctx, this.#owner, n)
      return Promise.resolve()
    } catch (e) {
      return Promise.reject(e)
    }
  }

  /** Tells subscribers the resource at `params.uri` changed. */
  sendResourceUpdated (params) {
    this.#owner.notifyResourceUpdated(params && params.uri)
    return Promise.resolve()
  }

  /** Announces that the tool list changed. An McpServer's registrations are announced by the
   * engine itself, so on `mcpServer.server` these do nothing. */
  sendToolListChanged () { return this.#listChanged('tools') }
  sendResourceListChanged () { return this.#listChanged('resources') }
  sendPromptListChanged () { return this.#listChanged('prompts') }

  #listChanged (kind) {
    if (!this.#standalone) return Promise.resolve()
    try {
      this.#owner.notifyListChanged(kind)
      return Promise.resolve()
    } catch (e) {
      return Promise.reject(e)
    }
  }

  /** The SDK's experimental task calls (tasks.js). */
  get experimental () {
    return { tasks: new ExperimentalServerTasks(this) }
  }

  /** Declares capabilities (merged over earlier ones, as the SDK merges them), before `connect`.
   * On `mcpServer.server` the capabilities follow from the registrations: this only checks its
   * argument. */
  registerCapabilities (capabilities) {
    if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)) throw new TypeError(`capabilities must be an object, got ${describe(capabilities)}`)
    if (!this.#standalone) return
    if (this.#transport !== null) throw new Error('Cannot register capabilities after connecting to transport')
    this.#owner.declareCapabilities(capabilities)
  }

  /** Answers requests of `schema`'s method (a Zod object schema whose `method` is a literal, as
   * the SDK takes it): `handler(request, extra)` gets the request (`{method, params}`) as `schema`
   * parsed it and returns the result. The method is one the specification does not define, or a
   * feature method a host may answer (`tools/list`, `tools/call`, `resources/*`, `prompts/*`,
   * `completion/complete`, `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`: its
   * capability declared first); any other throws an InvalidArgumentError naming why. */
  setRequestHandler (schema, handler) {
    const method = methodOf(schema)
    if (typeof handler !== 'function') throw new TypeError(`setRequestHandler: handler must be a function, got ${describe(handler)}`)
    const owner = this.#owner
    // An McpServer's handlers take input rounds (extra.js); a Server's own wait, as the SDK's do.
    const waits = this.#standalone
    const answer = async (params, extra) => {
      try {
        return await handler(schema.parse({ method, params }), extra)
      } catch (e) {
        throw codeKept(e)
      }
    }
    owner.setRequestHandler(method, (params, ctx) => runWithExtra(ctx, owner, (extra) => answer(params, extra), waits))
  }

  /** Removes the handler `setRequestHandler` set for `method`. */
  removeRequestHandler (method) {
    this.#owner.setRequestHandler(method, null)
  }

  /** The engine handles the client's notifications itself (`notifications/initialized`,
   * `cancelled`, `progress`, `roots/list_changed`) and hands none to the host: this throws
   * rather than register a handler that would never be called. */
  setNotificationHandler (schema) {
    const method = methodOf(schema)
    throw new Error(`setNotificationHandler: libmcp/sdk's Server does not hand client notifications to handlers (${method}): the engine handles the client's notifications itself`)
  }

  /** Serves on `transport` (this package's StdioServerTransport or StreamableHTTPServerTransport). */
  async connect (transport) {
    if (transport === null || typeof transport !== 'object' || typeof transport.start !== 'function' || typeof transport.attach !== 'function') {
      throw new TypeError('connect: transport must be a StdioServerTransport or StreamableHTTPServerTransport of this package')
    }
    if (this.#transport !== null) throw new Error('this server is connected already')
    this.#transport = transport
    transport.attach(this.#owner)
    await transport.start()
  }

  /** The transport `connect` was given, if any. */
  get transport () {
    return this.#transport ?? undefined
  }

  /** Stops serving. */
  async close () {
    const transport = this.#transport
    this.#transport = null
    if (transport) await transport.close()
    await this.#owner.close()
  }
}

/** The low-level Server an McpServer hands its handlers, over its own package Server `owner`. */
function serverOfMcpServer (owner) {
  return new Server(OF_MCP_SERVER, owner)
}

module.exports = { Server, serverOfMcpServer }
