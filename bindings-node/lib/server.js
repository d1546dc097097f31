'use strict'
// The Server class: registrations shaped like the official TypeScript SDK's McpServer.register*
// family, delegated to the addon's NativeServer (bindings-node/src/server.rs), which checks them
// with the core's rules. Handlers run on the JS thread; each answers its request exactly once.

const native = require('../index.js')
const { McpError, ErrorCode, translated, translatedSync } = require('./errors')
const { Context, InputRequired } = require('./context')
const { toJsonSchema } = require('./schema')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

function requireString (v, what) {
  if (typeof v !== 'string' || v === '') throw new TypeError(`${what} must be a non-empty string, got ${describe(v)}`)
}

function requireFunction (v, what) {
  if (typeof v !== 'function') throw new TypeError(`${what} must be a function, got ${describe(v)}`)
}

function optionalObject (v, what) {
  if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v))) {
    throw new TypeError(`${what} must be an object, got ${describe(v)}`)
  }
}

/** Copies the defined members of `config` listed in `keys` onto `def`. */
function pick (def, config, keys) {
  for (const k of keys) if (config[k] !== undefined) def[k] = config[k]
  return def
}

/** Sends a handler's answer: a result object, or input required. */
function answer (req, kind, value) {
  if (value instanceof InputRequired) {
    req.inputRequired(JSON.stringify(value.requests), value.state)
    return
  }
  if (kind === 'tool' && typeof value === 'string') {
    value = { content: [{ type: 'text', text: value }] }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    req.replyError(ErrorCode.InternalError, `the ${kind} handler returned ${describe(value)}, not a result object`)
    return
  }
  req.reply(JSON.stringify(value))
}

/** Sends a handler's failure: an McpError with a code keeps it; anything else thrown by a tool
 * becomes a tool error the model sees (`isError: true`), and by other handlers -32603. */
function fail (req, kind, e) {
  const message = e instanceof Error ? e.message : String(e)
  if (e instanceof McpError && Number.isInteger(e.code)) {
    req.replyError(e.code, message, e.data === undefined ? undefined : JSON.stringify(e.data))
  } else if (kind === 'tool') {
    req.reply(JSON.stringify({ content: [{ type: 'text', text: message }], isError: true }))
  } else {
    req.replyError(ErrorCode.InternalError, message)
  }
}

/** The addon-facing handler: builds the context, calls `invoke(ctx)` and answers. It never throws
 * (a throw on the JS thread inside a native callback would end the process). */
function dispatcher (kind, invoke) {
  return (req) => {
    try {
      const out = invoke(new Context(req))
      if (out !== null && typeof out === 'object' && typeof out.then === 'function') {
        out.then((v) => settle(req, kind, v), (e) => safeFail(req, kind, e))
      } else {
        settle(req, kind, out)
      }
    } catch (e) {
      safeFail(req, kind, e)
    }
  }
}

function settle (req, kind, value) {
  try {
    answer(req, kind, value)
  } catch (e) {
    safeFail(req, kind, e)
  }
}

function safeFail (req, kind, e) {
  try {
    fail(req, kind, e)
  } catch (e2) {
    req.replyError(ErrorCode.InternalError, String(e2 && e2.message))
  }
}

/** A registration, returned by `tool()`, `resource()` and the others. */
class Registered {
  #server
  constructor (server, kind, key) {
    this.#server = server
    this.kind = kind
    this.key = key
  }

  /** Removes it (clients are told the list changed). */
  remove () {
    return this.#server._remove(this.kind, this.key)
  }
}

/** An MCP server, serving both protocol eras. */
class Server {
  #native
  #keys = { tool: new Set(), resource: new Set(), resourceTemplate: new Set(), prompt: new Set() }
  #http = new Set()
  #stdio = null

  /** `info` is the implementation object (`{name, version, title?, description?, websiteUrl?,
   * icons?}`); `options.instructions` (or `info.instructions`) is sent to clients. */
  constructor (info, options = {}) {
    optionalObject(info, 'server info')
    if (info === undefined) throw new TypeError('new Server({name, version}) needs the server info')
    requireString(info.name, 'server info name')
    requireString(info.version, 'server info version')
    optionalObject(options, 'server options')
    const { instructions: infoInstructions, ...rest } = info
    const instructions = options.instructions ?? infoInstructions
    if (instructions !== undefined && typeof instructions !== 'string') throw new TypeError('instructions must be a string')
    this.#native = translatedSync(() => new native.NativeServer(JSON.stringify(rest), instructions))
  }

  #register (kind, key, add) {
    if (this.#keys[kind].has(key)) throw new Error(`${kind} ${key} is already registered`)
    translatedSync(add)
    this.#keys[kind].add(key)
    return new Registered(this, kind, key)
  }

  _remove (kind, key) {
    this.#keys[kind].delete(key)
    return translatedSync(() => this.#native.remove(kind, key))
  }

  /** Registers a tool. `config`: `title`, `description`, `inputSchema` and `outputSchema` (JSON
   * Schema, or Zod when installed), `annotations`, `icons`, `_meta`. The handler gets
   * `(args, ctx)` and returns a CallToolResult (or a string, or `inputRequired(...)`), sync or
   * async; a throw becomes a tool error (`isError: true`), an McpError with a code a JSON-RPC error. */
  tool (name, config, handler) {
    if (typeof config === 'function' && handler === undefined) [config, handler] = [{}, config]
    requireString(name, 'tool name')
    optionalObject(config, 'tool config')
    requireFunction(handler, 'tool handler')
    const def = pick({ name }, config, ['title', 'description', 'annotations', 'icons', '_meta', 'execution'])
    const input = toJsonSchema(config.inputSchema, 'inputSchema')
    const output = toJsonSchema(config.outputSchema, 'outputSchema')
    if (input !== undefined) def.inputSchema = input
    if (output !== undefined) def.outputSchema = output
    const invoke = dispatcher('tool', (ctx) => handler(ctx.params.arguments ?? {}, ctx))
    return this.#register('tool', name, () => this.#native.add('tool', JSON.stringify(def), invoke))
  }

  /** Registers a static resource at `uri`. `config`: `title`, `description`, `mimeType`, `size`,
   * `annotations`, `icons`, `_meta`. The handler gets `(uri: URL, ctx)` and returns a
   * ReadResourceResult. */
  resource (name, uri, config, handler) {
    if (typeof config === 'function' && handler === undefined) [config, handler] = [{}, config]
    requireString(name, 'resource name')
    requireString(uri, 'resource uri')
    optionalObject(config, 'resource config')
    requireFunction(handler, 'resource handler')
    const def = pick({ uri, name }, config, ['title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta'])
    const invoke = dispatcher('resource', (ctx) => handler(new URL(ctx.params.uri), ctx))
    return this.#register('resource', uri, () => this.#native.add('resource', JSON.stringify(def), invoke))
  }

  /** Registers a resource template (RFC 6570 `uriTemplate`). The handler gets
   * `(uri: URL, variables, ctx)`. */
  resourceTemplate (name, uriTemplate, config, handler) {
    if (typeof config === 'function' && handler === undefined) [config, handler] = [{}, config]
    requireString(name, 'resource template name')
    requireString(uriTemplate, 'uriTemplate')
    optionalObject(config, 'resource template config')
    requireFunction(handler, 'resource template handler')
    const def = pick({ uriTemplate, name }, config, ['title', 'description', 'mimeType', 'annotations', 'icons', '_meta'])
    const invoke = dispatcher('resource', (ctx) => handler(new URL(ctx.params.uri), ctx.templateVars ?? {}, ctx))
    return this.#register('resourceTemplate', uriTemplate, () =>
      this.#native.add('resourceTemplate', JSON.stringify(def), invoke))
  }

  /** Registers a prompt. `config`: `title`, `description`, `arguments` (`[{name, description?,
   * required?}]`), `icons`, `_meta`. The handler gets `(args, ctx)` and returns a GetPromptResult. */
  prompt (name, config, handler) {
    if (typeof config === 'function' && handler === undefined) [config, handler] = [{}, config]
    requireString(name, 'prompt name')
    optionalObject(config, 'prompt config')
    requireFunction(handler, 'prompt handler')
    const def = pick({ name }, config, ['title', 'description', 'arguments', 'icons', '_meta'])
    const invoke = dispatcher('prompt', (ctx) => handler(ctx.params.arguments ?? {}, ctx))
    return this.#register('prompt', name, () => this.#native.add('prompt', JSON.stringify(def), invoke))
  }

  /** Sets the `completion/complete` handler: `(params, ctx)` returning a CompleteResult. */
  completion (handler) {
    requireFunction(handler, 'completion handler')
    const invoke = dispatcher('completion', (ctx) => handler(ctx.params, ctx))
    translatedSync(() => this.#native.setCompletion(invoke))
  }

  /** Tells subscribed clients that the resource at `uri` changed. */
  notifyResourceUpdated (uri) {
    requireString(uri, 'uri')
    this.#native.notifyResourceUpdated(uri)
  }

  /** Serves this process's stdin/stdout; resolves when stdin closes or `close()` is called. */
  serveStdio () {
    if (this.#stdio) throw new Error('this server is already serving stdio')
    this.#stdio = translated(() => this.#native.serveStdio()).finally(() => { this.#stdio = null })
    return this.#stdio
  }

  /** Serves Streamable HTTP (both eras on one endpoint). `options`: `host` (an IP address,
   * default 127.0.0.1), `port` (default 0: any free port), `path` (default `/mcp`),
   * `legacySessions`, `httpSse`, `dnsRebindingProtection`, `allowedHosts`, `allowedOrigins`,
   * `maxBodyBytes`, `maxSessions`, `sessionIdleTimeoutMs`. Resolves to `{url, port, close()}`
   * once listening; the process stays alive until it is closed. */
  async serveHttp (options = {}) {
    optionalObject(options, 'HTTP options')
    const handle = await translated(() => this.#native.serveHttp(JSON.stringify(options)))
    const closed = handle.closed()
    const http = {
      url: handle.url,
      port: handle.port,
      closed,
      close: async () => {
        this.#http.delete(http)
        await handle.close()
      },
    }
    this.#http.add(http)
    return http
  }

  /** `serveStdio()` or `serveHttp(options)` by `options.transport` (`'stdio'` or `'http'`). */
  listen (options = {}) {
    optionalObject(options, 'listen options')
    const { transport = 'stdio', ...rest } = options
    if (transport === 'stdio') return this.serveStdio()
    if (transport === 'http') return this.serveHttp(rest)
    throw new TypeError(`transport must be 'stdio' or 'http', got ${JSON.stringify(transport)}`)
  }

  /** Stops serving: stdio ends once in-flight requests are answered; HTTP servers close. */
  async close () {
    const stdio = this.#stdio
    this.#native.stopStdio()
    await Promise.all([...this.#http].map((h) => h.close()))
    if (stdio) await stdio.catch(() => {})
  }
}

module.exports = { Server }
