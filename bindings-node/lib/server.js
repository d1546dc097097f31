'use strict'
// The Server class: registrations shaped like the official TypeScript SDK's McpServer.register*
// family, delegated to the addon's NativeServer (bindings-node/src/server.rs), which checks them
// with the core's rules. Handlers run on the JS thread; each answers its request exactly once.

const native = require('../index.js')
const { McpError, ErrorCode, InvalidTokenError, TransportError, translated, translatedSync } = require('./errors')
const { Context, InputRequired } = require('./context')
const { schemaOf } = require('./schema')
const { checkedTool, then } = require('./tool_checks')
const zod = require('./zod')
const { replyResult, parseWithStrings } = require('./large_strings')
const { MountedEndpoint } = require('./mount')
const { storeFunction } = require('./http_stores')

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

/** The addon hands the answers of one event-loop turn to the engine together (one wake-up of its
 * writer, not one per answer): whatever answers a request calls `flushSoon()`. */
let unflushed = false
let scheduled = false
function flush () {
  unflushed = false
  native.requestFlush()
}
function flushSoon () {
  unflushed = true
  if (!scheduled) {
    scheduled = true
    setImmediate(flushScheduled)
  }
}
function flushScheduled () {
  scheduled = false
  if (unflushed) flush()
}

/** Runs what `flushSoon()` scheduled now: the answers given by handlers called while a stdin
 * chunk was handled go out before its callback returns. */
function flushNow () {
  if (unflushed) flush()
}

/** The addon-facing handlers by the number `add`/`setCompletion` gave them, for the calls handed
 * back by stdin feeding (see `bindings-node/src/stdio.rs`). */
const invokers = new Map()

/** Forgets a replaced or removed handler once the current chunk's calls are made: a request the
 * engine dispatched to it before it was replaced is still answered by it (as through the
 * thread-safe function it was registered with). */
function retire (number) {
  if (number !== undefined) setImmediate(() => invokers.delete(number))
}

/** How many answers `runFed` lets collect before it sends them: a chunk's answers go out in
 * pieces while its later calls are made, so the peer reads them (and can send more) meanwhile
 * instead of waiting for the whole chunk; a chunk with fewer calls is answered with one write. */
const PIECE = 8

/** Makes the handler calls a fed stdin chunk needs (`fed` as `feed()` returns it: `calls` is
 * `[key, id, params, ...]` as JSON text), sending their answers every `PIECE` calls and at the
 * end. */
function runFed (fed) {
  const calls = fed.calls === undefined || fed.calls === null ? [] : parseWithStrings(fed.calls, fed.strings)
  let since = 0
  for (let i = 0; i < calls.length; i += 3) {
    const invoke = invokers.get(calls[i])
    // Not reached while `retire` keeps replaced handlers for the chunk; if it were, the request
    // would get -32603 instead of hanging.
    if (invoke === undefined) native.requestAbandoned(calls[i + 1])
    else invoke(calls[i + 1], calls[i + 2])
    if (++since >= PIECE) {
      flushNow()
      since = 0
    }
  }
  flushNow()
}

/** The text of a tool result that is exactly `{content: [{type: 'text', text}]}` (plain objects,
 * those keys in that order and no others, `text` a string), else undefined. Such a result, the
 * most common one, is handed to the addon as its text alone: what `JSON.stringify` would have
 * written is the same. */
function onlyText (value) {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return undefined
  const keys = Object.keys(value)
  if (keys.length !== 1 || keys[0] !== 'content') return undefined
  const content = value.content
  if (!Array.isArray(content) || content.length !== 1) return undefined
  const item = content[0]
  if (item === null || typeof item !== 'object' || Object.getPrototypeOf(item) !== Object.prototype) return undefined
  const itemKeys = Object.keys(item)
  if (itemKeys.length !== 2 || itemKeys[0] !== 'type' || itemKeys[1] !== 'text' || item.type !== 'text') return undefined
  const text = item.text
  return typeof text === 'string' ? text : undefined
}

/** Sends a handler's answer for request `id`: a result object, or input required. */
function answer (id, kind, value) {
  if (value instanceof InputRequired) {
    native.requestInputRequired(id, JSON.stringify(value.requests), value.state)
    return
  }
  if (kind === 'tool') {
    // Nothing returned: the engine's one answer for it (core/src/host/tool_result.rs).
    if (value === null || value === undefined) {
      native.requestReplyNothing(id)
      return
    }
    const text = typeof value === 'string' ? value : onlyText(value)
    if (text !== undefined) {
      native.requestReplyText(id, text)
      return
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    native.requestReplyError(id, ErrorCode.InternalError, `the ${kind} handler returned ${describe(value)}, not a result object`)
    return
  }
  replyResult(id, value)
}

/** Sends a handler's failure: an McpError with a code keeps it; anything else thrown by a tool
 * becomes a tool error the model sees (`isError: true`), and by other handlers -32603. */
function fail (id, kind, e) {
  const message = e instanceof Error ? e.message : String(e)
  if (e instanceof McpError && Number.isInteger(e.code)) {
    native.requestReplyError(id, e.code, message, e.data === undefined ? undefined : JSON.stringify(e.data))
  } else if (kind === 'tool') {
    native.requestReplyToolError(id, message)
  } else {
    native.requestReplyError(id, ErrorCode.InternalError, message)
  }
}

/** A handler's promise collected unsettled can never answer: its request gets an internal error
 * (a no-op for requests answered already, whose numbers are never reused). */
const unsettled = new FinalizationRegistry((id) => native.requestAbandoned(id))

/** The addon-facing handler, called with a request's number and params (JSON text with its large
 * strings beside it, see `large_strings.js`, or the object itself when the call comes from a fed
 * stdin chunk, see `runFed`): builds the
 * context, calls `invoke(ctx)` and answers; a sync result is answered before it returns, with
 * no promise involved. It never throws (a throw on the JS thread inside a native callback would
 * end the process). */
function dispatcher (kind, invoke) {
  return (id, params, strings) => {
    try {
      const out = invoke(new Context(id, typeof params === 'string' ? parseWithStrings(params, strings) : params))
      if (out !== null && typeof out === 'object' && typeof out.then === 'function') {
        unsettled.register(out, id)
        out.then((v) => settle(id, kind, v), (e) => safeFail(id, kind, e))
      } else {
        settle(id, kind, out)
      }
    } catch (e) {
      safeFail(id, kind, e)
    }
  }
}

function settle (id, kind, value) {
  try {
    answer(id, kind, value)
  } catch (e) {
    safeFail(id, kind, e)
  }
  flushSoon()
}

function safeFail (id, kind, e) {
  try {
    fail(id, kind, e)
  } catch (e2) {
    native.requestReplyError(id, ErrorCode.InternalError, String(e2 && e2.message))
  }
  flushSoon()
}

/** The addon-facing token verifier around `verifyToken(token)`, which returns the token's facts
 * (`{subject?, clientId?, scopes?, expiresAt?, audience?, claims?}`) or null to refuse it, sync or
 * async; it resolves to the JSON answer `bindings-node/src/auth.rs` decodes and never rejects. */
function tokenVerifier (verifyToken) {
  return async (token) => {
    try {
      const info = await verifyToken(token)
      if (info === null || info === undefined) return JSON.stringify({ invalid: 'the token was refused' })
      return JSON.stringify({ ok: info })
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e)
      return JSON.stringify(e instanceof InvalidTokenError ? { invalid: message } : { unavailable: message })
    }
  }
}

/** The task options of `new Server(info, {tasks})` for the addon: the options as JSON text, and the
 * JS store (`{create(record), put(record), get(id), list()}`, each sync or async; `get` gives the
 * record or null, `list` every record) wrapped as the one function `bindings-node/src/task_store.rs`
 * calls, which resolves to `{ok}` or `{error}` as JSON text and never rejects. */
/** The server limits among `options` (see the Server constructor), as JSON text for the addon. */
const LIMITS = ['pageSize', 'maxMessageBytes', 'maxInFlight', 'maxInputRounds', 'maxRequestStateBytes', 'stateTtlMs', 'clientRequestTimeoutMs', 'handlerTimeoutMs']
/** The HTTP options that are counts (bytes, fields, sessions, milliseconds). */
const HTTP_COUNTS = ['maxBodyBytes', 'maxHeaderBytes', 'maxHeaders', 'maxSessions', 'sessionIdleTimeoutMs']

/** Checks that each of `keys` given in `options` is a non-negative integer (TypeError otherwise);
 * returns the ones given. */
function counts (options, keys) {
  const given = {}
  for (const k of keys) {
    const v = options[k]
    if (v === undefined) continue
    if (!Number.isSafeInteger(v) || v < 0) throw new TypeError(`${k} must be a non-negative integer, got ${typeof v === 'number' ? v : describe(v)}`)
    given[k] = v
  }
  return given
}

/** The HTTP options of `serveHttp` and `mount` for the addon: `{json, verifier, stores}`, the token
 * verifier wrapping `auth.verifyToken` when `auth` is given, and the function running
 * `sessionStore` and `eventStore` (lib/http_stores.js) when either is given. */
function httpOptions (options) {
  optionalObject(options, 'HTTP options')
  counts(options, HTTP_COUNTS)
  const { auth, sessionStore, eventStore, ...rest } = options
  let stores
  if (sessionStore !== undefined || eventStore !== undefined) {
    stores = storeFunction(sessionStore, eventStore)
    if (sessionStore !== undefined) rest.sessionStore = true
    if (eventStore !== undefined) rest.eventStore = true
  }
  let verifier
  if (auth !== undefined) {
    optionalObject(auth, 'auth options')
    const { verifyToken, ...authOptions } = auth
    requireFunction(verifyToken, 'auth.verifyToken')
    verifier = tokenVerifier(verifyToken)
    rest.auth = authOptions
  }
  return { json: JSON.stringify(rest), verifier, stores }
}

function limitsJson (options) {
  const limits = counts(options, LIMITS)
  return Object.keys(limits).length ? JSON.stringify(limits) : undefined
}

function taskOptions (options) {
  if (options === undefined) return {}
  optionalObject(options, 'tasks options')
  const { store, ...rest } = options
  if (store === undefined) return { tasks: JSON.stringify(rest) }
  optionalObject(store, 'tasks.store')
  for (const m of ['create', 'put', 'get', 'list']) requireFunction(store[m], `tasks.store.${m}`)
  const run = async (text) => {
    try {
      const { op, record, id } = JSON.parse(text)
      const value = op === 'get' ? await store.get(id) : op === 'list' ? await store.list() : await store[op](record)
      if (op === 'list' && !Array.isArray(value)) throw new TypeError(`tasks.store.list resolved to ${describe(value)}, not an array`)
      return JSON.stringify({ ok: op === 'get' || op === 'list' ? value ?? null : null })
    } catch (e) {
      return JSON.stringify({ error: e instanceof Error ? e.message : String(e) })
    }
  }
  return { tasks: JSON.stringify(rest), store: run }
}

/** The skills of `new Server(info, {skills})` for the addon, as JSON text (`src/skills.rs`): each
 * `{skillMd, files?: [{path, mimeType, content}]}`, a string content sent as text, bytes as base64. */
function skillsJson (skills) {
  if (skills === undefined) return undefined
  if (!Array.isArray(skills)) throw new TypeError(`skills must be an array, got ${describe(skills)}`)
  return JSON.stringify(skills.map((skill, i) => skillSpec(skill, `skills[${i}]`)))
}

/** One skill for the addon (`what` names it in errors): `{skillMd, files: [{path, mimeType, text |
 * blob}]}`. */
function skillSpec (skill, what) {
  optionalObject(skill, what)
  if (skill === undefined) throw new TypeError(`${what} must be an object, got undefined`)
  if (typeof skill.skillMd !== 'string') throw new TypeError(`${what}.skillMd must be a string, got ${describe(skill.skillMd)}`)
  const files = skill.files ?? []
  if (!Array.isArray(files)) throw new TypeError(`${what}.files must be an array, got ${describe(files)}`)
  return {
    skillMd: skill.skillMd,
    files: files.map((f, j) => {
      const where = `${what}.files[${j}]`
      if (f === null || typeof f !== 'object' || Array.isArray(f)) throw new TypeError(`${where} must be an object, got ${describe(f)}`)
      requireString(f.path, `${where}.path`)
      requireString(f.mimeType, `${where}.mimeType`)
      const file = { path: f.path, mimeType: f.mimeType }
      if (typeof f.content === 'string') file.text = f.content
      else if (f.content instanceof Uint8Array) file.blob = Buffer.from(f.content.buffer, f.content.byteOffset, f.content.byteLength).toString('base64')
      else throw new TypeError(`${where}.content must be a string or a Uint8Array, got ${describe(f.content)}`)
      return file
    }),
  }
}

/** A registration, returned by `tool()`, `resource()` and the others (like the official SDK's
 * RegisteredTool): `update`, `disable`/`enable` and `remove` change what clients are offered, and
 * clients are told the list changed. */
class Registered {
  #ops
  #config
  #handler
  #enabled = true
  #removed = false
  constructor (kind, key, ops, config, handler) {
    this.kind = kind
    this.key = key
    this.#ops = ops
    this.#config = config
    this.#handler = handler
  }

  /** Whether clients are offered it. */
  get enabled () { return this.#enabled && !this.#removed }

  /** Replaces its config (merged with the current one) and/or handler; the name stays. */
  update (config = {}, handler = this.#handler) {
    if (this.#removed) throw new Error(`${this.kind} ${this.key} was removed`)
    optionalObject(config, `${this.kind} config`)
    const merged = { ...this.#config, ...config }
    const built = this.#ops.make(merged, handler)
    if (this.#enabled) this.#ops.add(built)
    this.#config = merged
    this.#handler = handler
  }

  /** Stops offering it (the name stays reserved). */
  disable () {
    if (this.enabled) {
      this.#ops.remove()
      this.#enabled = false
    }
  }

  /** Offers it again after `disable()`. */
  enable () {
    if (!this.#enabled && !this.#removed) {
      this.#ops.add(this.#ops.make(this.#config, this.#handler))
      this.#enabled = true
    }
  }

  /** Removes it for good; `false` if it was removed already. */
  remove () {
    if (this.#removed) return false
    this.#removed = true
    this.#ops.forget()
    if (this.#enabled) this.#ops.remove()
    return true
  }
}

/** A prompt's `argsSchema` (a raw shape of Zod schemas, or a Zod object) as `{list, zod}`: the
 * `arguments` listed (each field's name, description, and `required` unless the field may be
 * omitted) and the object schema that parses them; undefined without one. */
function promptArgs (name, config) {
  if (config.argsSchema === undefined) return undefined
  if (config.arguments !== undefined) throw new TypeError(`prompt ${name}: give arguments or argsSchema, not both`)
  if (!zod.isZodInput(config.argsSchema)) throw new TypeError(`prompt ${name}: argsSchema must be a Zod raw shape or object schema`)
  const z = zod.toZod(config.argsSchema, 'argsSchema')
  const shape = zod.shapeOf(z)
  if (shape === undefined) throw new TypeError(`prompt ${name}: argsSchema must be a Zod object schema`)
  const list = Object.entries(shape).map(([arg, field]) => {
    const item = { name: arg }
    if (typeof field.description === 'string') item.description = field.description
    item.required = !zod.mayBeOmitted(field)
    return item
  })
  return { list, zod: z }
}

/** `(config, handler)` accepted as `(handler)` alone. */
function configAndHandler (config, handler) {
  return typeof config === 'function' && handler === undefined ? [{}, config] : [config, handler]
}

/** An MCP server, serving both protocol eras. */
class Server {
  #native
  #keys = { tool: new Set(), resource: new Set(), resourceTemplate: new Set(), prompt: new Set() }
  #http = new Set()
  /** The mounted endpoint (`mount()`), once made. */
  #mount = null
  #stdio = null
  #stopStdio = null
  /** The numbers of the handlers there is one of (see `#setOne`), by slot: `completion`,
   * `lister`, `method NAME` (see `runFed`). */
  #ones = new Map()

  /** `info` is the implementation object (`{name, version, title?, description?, websiteUrl?,
   * icons?}`); `options.instructions` (or `info.instructions`) is sent to clients;
   * `options.tasks` sets how tools run as tasks are kept: `ttlMs` (how long a task stays
   * readable after its creation, default one hour), `pollIntervalMs` (what clients are asked to
   * poll at, default 500), and either `maxTasks` (the in-memory store's bound, default 10000) or
   * `store`, an object keeping the task records elsewhere (see `taskStore`).
   * `options.skills` are served through the skills extension (SEP-2640): each `{skillMd, files?}`,
   * `skillMd` the text of its SKILL.md (whose frontmatter names and describes it), `files` its
   * other files as `{path, mimeType, content}` (`content` a string or bytes); the engine lists them
   * with their digests and serves them as resources under `skill://NAME/`. A SKILL.md or file path
   * the engine refuses throws an InvalidArgumentError with the reason.
   * `options.redis` (`'redis://host:port/db'`) keeps the server's state in that Redis, shared by
   * every instance on it: tasks, the `requestState` keys and list changes, and with `serveHttp`
   * the legacy sessions, their SSE events and answers to server-to-client requests. The
   * constructor waits for Redis to answer once: a URL that is not a Redis URL throws an
   * InvalidArgumentError, a Redis that does not answer a TransportError.
   * The limits, each a non-negative integer (a wrong type throws a TypeError, a zero an
   * InvalidArgumentError naming it): `pageSize` (items per list page, default 100),
   * `maxMessageBytes` (largest accepted message, default 8 MiB; a larger one gets -32600 and the
   * connection goes on), `maxInFlight` (requests in flight per session, default 1024; one more
   * gets -32603 with `data.maxInFlight`), `maxInputRounds` (input rounds of one legacy request,
   * default 10), `maxRequestStateBytes` (largest `requestState` a handler may return, before
   * sealing, default 256 KiB; a larger one fails the request with -32603), `stateTtlMs` (how long a sealed `requestState` stays valid, default 10 minutes),
   * `clientRequestTimeoutMs` (how long a legacy server-to-client request waits, default 5
   * minutes), `handlerTimeoutMs` (the longest a handler may take to answer, no limit by default;
   * when it passes first the request gets -32603 with `data.handlerTimeoutMs`, `ctx.signal`
   * aborts and the handler's later answer is dropped). */
  constructor (info, options = {}) {
    optionalObject(info, 'server info')
    if (info === undefined) throw new TypeError('new Server({name, version}) needs the server info')
    requireString(info.name, 'server info name')
    requireString(info.version, 'server info version')
    optionalObject(options, 'server options')
    const { instructions: infoInstructions, ...rest } = info
    const instructions = options.instructions ?? infoInstructions
    if (instructions !== undefined && typeof instructions !== 'string') throw new TypeError('instructions must be a string')
    const { tasks, store } = taskOptions(options.tasks)
    const skills = skillsJson(options.skills)
    if (options.redis !== undefined && typeof options.redis !== 'string') throw new TypeError(`redis must be a URL string, got ${describe(options.redis)}`)
    const limits = limitsJson(options)
    this.#native = translatedSync(() => new native.NativeServer(JSON.stringify(rest), instructions, tasks, store, skills, options.redis, limits))
  }

  /** Registers `key` of `kind`: `make(config, handler)` checks them and gives `{def, invoke}`. */
  #register (kind, key, make, config, handler) {
    if (this.#keys[kind].has(key)) throw new Error(`${kind} ${key} is already registered`)
    let current
    const ops = {
      make,
      add: ({ def, invoke, deferTask, inputByHost, outputByHost }) => {
        const number = translatedSync(() => this.#native.add(kind, JSON.stringify(def), invoke, deferTask, inputByHost, outputByHost))
        retire(current)
        current = number
        invokers.set(number, invoke)
      },
      remove: () => {
        retire(current)
        current = undefined
        return translatedSync(() => this.#native.remove(kind, key))
      },
      forget: () => this.#keys[kind].delete(key),
    }
    ops.add(make(config, handler))
    this.#keys[kind].add(key)
    return new Registered(kind, key, ops, config, handler)
  }

  /** Registers a tool. `config`: `title`, `description`, `inputSchema` and `outputSchema` (JSON
   * Schema, or Zod when installed), `annotations`, `icons`, `_meta`, `execution` (`{taskSupport:
   * 'optional' | 'required'}` lets clients run it as a task: the handler then runs inside the
   * task, its answer completes it, `ctx.signal` aborts on `tasks/cancel`; with `deferTask: true`
   * the handler may ask for input first and calls `ctx.startTask()` itself). The handler gets
   * `(args, ctx)` and returns a CallToolResult (or a string, or `inputRequired(...)`, or nothing:
   * `null`/`undefined` is a result with no content), sync or async; a throw becomes a tool error
   * (`isError: true`, its text the error's message), an McpError with a code a JSON-RPC error. */
  tool (name, ...rest) {
    requireString(name, 'tool name')
    const make = (config, handler) => {
      optionalObject(config, 'tool config')
      requireFunction(handler, 'tool handler')
      const def = pick({ name }, config, ['title', 'description', 'annotations', 'icons', '_meta', 'execution'])
      const input = schemaOf(config.inputSchema, 'inputSchema', 'input')
      const output = schemaOf(config.outputSchema, 'outputSchema', 'output')
      if (input !== undefined) def.inputSchema = input.json
      if (output !== undefined) def.outputSchema = output.json
      if (config.deferTask !== undefined && typeof config.deferTask !== 'boolean') throw new TypeError('deferTask must be a boolean')
      const inputZod = input && input.zod
      const outputZod = output && output.zod
      const checked = checkedTool(name, handler, inputZod, outputZod)
      return {
        def,
        deferTask: config.deferTask,
        inputByHost: inputZod !== undefined,
        outputByHost: outputZod !== undefined,
        invoke: dispatcher('tool', (ctx) => checked(ctx.params.arguments ?? {}, ctx)),
      }
    }
    return this.#register('tool', name, make, ...configAndHandler(...rest))
  }

  /** Registers a static resource at `uri`. `config`: `title`, `description`, `mimeType`, `size`,
   * `annotations`, `icons`, `_meta`. The handler gets `(uri: URL, ctx)` and returns a
   * ReadResourceResult. */
  resource (name, uri, ...rest) {
    requireString(name, 'resource name')
    requireString(uri, 'resource uri')
    const make = (config, handler) => {
      optionalObject(config, 'resource config')
      requireFunction(handler, 'resource handler')
      const def = pick({ uri, name }, config, ['title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta'])
      return { def, invoke: dispatcher('resource', (ctx) => handler(new URL(ctx.params.uri), ctx)) }
    }
    return this.#register('resource', uri, make, ...configAndHandler(...rest))
  }

  /** Registers a resource template (RFC 6570 `uriTemplate`). The handler gets
   * `(uri: URL, variables, ctx)`. */
  resourceTemplate (name, uriTemplate, ...rest) {
    requireString(name, 'resource template name')
    requireString(uriTemplate, 'uriTemplate')
    const make = (config, handler) => {
      optionalObject(config, 'resource template config')
      requireFunction(handler, 'resource template handler')
      const def = pick({ uriTemplate, name }, config, ['title', 'description', 'mimeType', 'annotations', 'icons', '_meta'])
      return { def, invoke: dispatcher('resource', (ctx) => handler(new URL(ctx.params.uri), ctx.templateVars ?? {}, ctx)) }
    }
    return this.#register('resourceTemplate', uriTemplate, make, ...configAndHandler(...rest))
  }

  /** Registers a prompt. `config`: `title`, `description`, `arguments` (`[{name, description?,
   * required?}]`), `icons`, `_meta`. The handler gets `(args, ctx)` and returns a GetPromptResult. */
  prompt (name, ...rest) {
    requireString(name, 'prompt name')
    const make = (config, handler) => {
      optionalObject(config, 'prompt config')
      requireFunction(handler, 'prompt handler')
      const def = pick({ name }, config, ['title', 'description', 'arguments', 'icons', '_meta'])
      const args = promptArgs(name, config)
      if (args === undefined) return { def, invoke: dispatcher('prompt', (ctx) => handler(ctx.params.arguments ?? {}, ctx)) }
      def.arguments = args.list
      return { def, invoke: dispatcher('prompt', (ctx) => then(zod.parse(args.zod, ctx.params.arguments ?? {}), (r) => {
        if (r.issues) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${zod.issuesMessage(r.issues)}`)
        return handler(r.value, ctx)
      })) }
    }
    return this.#register('prompt', name, make, ...configAndHandler(...rest))
  }

  /** Sets the handler there is one of in `slot` (see `#ones`): `handler(params, ctx)` (a
   * function, `what` naming it in the TypeError otherwise) registered with the addon by
   * `set(invoke)`, which gives its number; or, with `handler` null, `unset()` removes it. */
  #setOne (slot, kind, what, handler, set, unset) {
    let number
    if (handler === null && unset !== undefined) {
      translatedSync(unset)
    } else {
      requireFunction(handler, what)
      const invoke = dispatcher(kind, (ctx) => handler(ctx.params, ctx))
      number = translatedSync(() => set(invoke))
      invokers.set(number, invoke)
    }
    retire(this.#ones.get(slot))
    if (number === undefined) this.#ones.delete(slot)
    else this.#ones.set(slot, number)
  }

  /** Sets the `completion/complete` handler: `(params, ctx)` returning a CompleteResult. */
  completion (handler) {
    this.#setOne('completion', 'completion', 'completion handler', handler, (f) => this.#native.setCompletion(f))
  }

  /** Answers requests for `method` with `handler(params, ctx)`, which returns (or resolves to)
   * the result object, throws an `McpError` for a JSON-RPC error, or anything else for -32603;
   * `null` removes the handler. `method` is either one the specification does not define
   * (`acme/search`: without a handler it is answered -32601, method not found; no capability is
   * declared for it) or a feature method the specification lets a host answer itself:
   * `tools/list`, `tools/call`, `resources/list`, `resources/templates/list`, `resources/read`,
   * `prompts/list`, `prompts/get`, `completion/complete`, `tasks/get`, `tasks/result`,
   * `tasks/list`, `tasks/cancel`. For those the engine still checks the request against the
   * revision's schema before the handler runs (-32602) and the result after (-32603, never
   * sent), serves them only in the revisions that have them, and needs their capability
   * declared first (`declareCapabilities`); owning one while the engine has items it would
   * answer it for (a registered tool for `tools/call`) throws an `InvalidArgumentError` naming
   * both, as registering such an item afterwards does. Any other method the specification
   * defines (`initialize`, `ping`, ...), one in the `notifications/` namespace or beginning with
   * `rpc.` throws an `InvalidArgumentError` naming why: the engine answers those itself. */
  setRequestHandler (method, handler) {
    requireString(method, 'method')
    this.#setOne(`method ${method}`, 'request', 'request handler', handler,
      (f) => this.#native.setMethodHandler(method, f), () => this.#native.removeMethodHandler(method))
  }

  /** Declares capabilities of your own (an object as `initialize` carries them): each key given
   * is advertised as given, over what the engine would declare for it. The methods you answer
   * yourself (`setRequestHandler`) need theirs declared: `tools`, `resources`, `prompts`,
   * `completions`, `tasks` (the 2025-11-25 form; 2026-07-28 clients are told of tasks through
   * the tasks extension). */
  declareCapabilities (capabilities) {
    optionalObject(capabilities, 'capabilities')
    if (capabilities === undefined) throw new TypeError('capabilities must be an object, got undefined')
    translatedSync(() => this.#native.declareCapabilities(JSON.stringify(capabilities)))
  }

  /** Tells clients that a list you answer yourself changed: `kind` is `tools`, `resources` or
   * `prompts` (the engine announces changes to its own registrations itself). */
  notifyListChanged (kind) {
    requireString(kind, 'kind')
    translatedSync(() => this.#native.notifyListChanged(kind))
  }

  /** Adds entries of your own to `resources/list`: `lister(params, ctx)` returns (or resolves to)
   * `{resources: [{uri, name, ...}, ...]}`, listed after the registered resources; the engine
   * pages the whole list (`params.cursor` is the client's), so the lister gives every entry each
   * time. An entry without a string `uri` and `name` fails the request with -32603 naming it.
   * Reading such a URI needs a registered resource or a template that matches it. `null` removes
   * the lister. */
  resourceLister (lister) {
    this.#setOne('lister', 'resource lister', 'resource lister', lister,
      (f) => this.#native.setResourceLister(f), () => this.#native.setResourceLister(null))
  }

  /** Serves `skill` (`{skillMd, files?}`, as in the `skills` option) from now on, replacing a skill
   * of the same name, and tells clients the resource list changed. A SKILL.md or file the engine
   * refuses, or a file whose URI another resource has, throws an `InvalidArgumentError` and changes
   * nothing. */
  addSkill (skill) {
    const spec = JSON.stringify(skillSpec(skill, 'skill'))
    translatedSync(() => this.#native.addSkill(spec))
  }

  /** Stops serving the skill `name` (its files go with it); `false` if there was none. */
  removeSkill (name) {
    requireString(name, 'name')
    return this.#native.removeSkill(name)
  }

  /** Tells subscribed clients that the resource at `uri` changed. */
  notifyResourceUpdated (uri) {
    requireString(uri, 'uri')
    this.#native.notifyResourceUpdated(uri)
  }

  /** Serves this process's stdin/stdout; resolves when stdin closes or `close()` is called (once
   * in-flight requests are answered), and rejects with a TransportError when stdin or stdout
   * fails. Stdin is read by Node on this thread and each chunk handed to the engine, which
   * dispatches the requests at once and writes answers straight to stdout. */
  serveStdio () {
    if (this.#stdio) throw new Error('this server is already serving stdio')
    const conn = this.#native.openStdio()
    const highWater = conn.highWater
    let stop
    const served = new Promise((resolve, reject) => {
      const input = process.stdin
      let ended = false
      let paused = false
      const onData = (chunk) => {
        let fed
        try {
          fed = translatedSync(() => conn.feed(chunk))
        } catch (e) {
          finish(e)
          return
        }
        runFed(fed)
        // The peer is not reading what it is sent: stop reading until the engine has written.
        if (fed.waiting >= highWater && !paused) {
          paused = true
          input.pause()
          conn.writable().then(() => {
            paused = false
            if (!ended) input.resume()
          }, () => {})
        }
      }
      const onEnd = () => finish()
      const onError = (e) => finish(new TransportError(`reading stdin failed: ${e.message}`))
      const finish = (failure) => {
        if (ended) return
        ended = true
        input.off('data', onData)
        input.off('end', onEnd)
        // `onError` stays: an error stdin emits later must find a listener (without one Node
        // throws it), and `finish` ignores it. A paused stdin no longer keeps the process alive.
        input.pause()
        runFed(conn.end())
        translated(() => conn.finish()).then(
          () => (failure ? reject(failure) : resolve()),
          (e) => reject(failure ?? e))
      }
      stop = () => finish()
      input.on('data', onData)
      input.on('end', onEnd)
      input.on('error', onError)
    })
    this.#stopStdio = stop
    this.#stdio = served.finally(() => {
      this.#stdio = null
      this.#stopStdio = null
    })
    return this.#stdio
  }

  /** Serves Streamable HTTP (both eras on one endpoint). `options`: `host` (an IP address,
   * default 127.0.0.1), `port` (default 0: any free port), `path` (default `/mcp`),
   * `legacySessions`, `legacyStateless` (serve legacy requests without sessions: `initialize` is
   * answered and nothing kept, every other request served on its own as the revision of its
   * `MCP-Protocol-Version` header; GET and DELETE get 405; a request to the client fails at once),
   * `httpSse`, `jsonResponse` (answer every request with one JSON body, never
   * an event stream: the handler's progress and log messages are dropped, and a request it sends
   * the client on a legacy session fails at once), `dnsRebindingProtection`, `allowedHosts`,
   * `allowedOrigins`, `maxBodyBytes`, `maxHeaderBytes` (request head, default 64 KiB, at least 8192; a larger one
   * gets HTTP 431), `maxHeaders` (header fields per request, default 100), `maxSessions`,
   * `sessionIdleTimeoutMs` (each a non-negative integer, else a TypeError; a value the engine
   * refuses rejects with an InvalidArgumentError naming it), and `auth` for OAuth 2.1
   * resource-server mode: `{resource, verifyToken, authorizationServers?, scopesSupported?,
   * requiredScopes?, toolScopes?, resourceName?, resourceDocumentation?, checkAudience?,
   * verifyTimeoutMs?}` (every request then needs a bearer token `verifyToken` accepts; the engine
   * checks expiry, audience and scopes and serves the protected resource metadata). Resolves to
   * `{url, port, close()}` once listening; the process stays alive until it is closed. A server
   * made with `redis` keeps its sessions there, and rejects with a TransportError when Redis does
   * not answer now. */
  async serveHttp (options = {}) {
    const { json, verifier, stores } = httpOptions(options)
    const handle = await translated(() => this.#native.serveHttp(json, verifier, stores), 'listen')
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

  /** The MCP endpoint of this server to mount in the application's own web server, made with
   * `options` (made once: a second call, or a call after `handleRequest`/`fetch` made the default
   * one, throws). `options`: those of `serveHttp` but the listener's own (`host`, `port`, `path`,
   * `maxHeaderBytes`, `maxHeaders`, refused); Host/Origin are not checked by default (the
   * application, or the proxy before it, owns `Host`); `allowedHosts` / `allowedOrigins` check what
   * they list, unless `dnsRebindingProtection: false`. Returns `{handleRequest,
   * fetch, ready, close()}` (see lib/mount.js); `ready` rejects when the endpoint cannot be made
   * (a server made with `redis` whose Redis does not answer), and requests then get HTTP 500. */
  mount (options = {}) {
    if (this.#mount !== null) throw new Error('this server is mounted already: call mount(options) once, before the first handleRequest() or fetch()')
    const { json, verifier, stores } = httpOptions(options)
    // Options the engine refuses throw here, at once.
    const created = translatedSync(() => this.#native.endpoint(json, verifier, stores))
    this.#mount = new MountedEndpoint(() => created)
    return this.#mount
  }

  /** Answers one request of a node:http server (Express, Fastify's raw req/res) on this server's
   * mounted endpoint, made with the defaults of `mount()` on first use: see `mount()` and
   * `MountedEndpoint.handleRequest` in lib/mount.js. */
  handleRequest (req, res, parsedBody) {
    return (this.#mount ?? this.mount()).handleRequest(req, res, parsedBody)
  }

  /** Answers a web-standard Request with a Response on this server's mounted endpoint (made with
   * the defaults of `mount()` on first use); `options.authInfo` reaches handlers as `ctx.authInfo`. */
  fetch (request, options) {
    return (this.#mount ?? this.mount()).fetch(request, options)
  }

  /** A connection to this server inside this process (an in-memory transport, for tests):
   * `onMessage(message)` gets each JSON-RPC message the server sends on it, as an object; returns
   * `{send(message), close()}`, `send` handing the server one message (an object) from the client. */
  openSession (onMessage) {
    requireFunction(onMessage, 'onMessage')
    const session = this.#native.openSession((text) => onMessage(JSON.parse(text)))
    return {
      send: (message) => session.send(JSON.stringify(message)),
      close: () => session.close(),
    }
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
    if (this.#stopStdio) this.#stopStdio()
    if (this.#mount !== null) this.#mount.close()
    await Promise.all([...this.#http].map((h) => h.close()))
    if (stdio) await stdio.catch(() => {})
  }
}

module.exports = { Server }
