'use strict'
// The Client class over the addon's NativeClient (bindings-node/src/client.rs): the core probes the
// server's era, pages through lists, and answers input rounds (MRTR, or legacy server-to-client
// requests) through the handlers given here.

const native = require('../index.js')
const { McpError, CancelledError, TransportError, ErrorCode, translated } = require('./errors')
const { stringifyWithStrings, parseWithStrings } = require('./large_strings')

let lastCallId = 0
function nextCallId () {
  lastCallId = lastCallId >= 0xffffffff ? 1 : lastCallId + 1
  return lastCallId
}

/** A JS input handler for the addon: resolves to `{result}` or `{error}` as JSON, never rejects. */
function inputHandler (f, what) {
  if (f === undefined) return undefined
  if (typeof f !== 'function') throw new TypeError(`${what} must be a function`)
  return async (paramsJson) => {
    try {
      const result = await f(JSON.parse(paramsJson))
      return JSON.stringify({ result })
    } catch (e) {
      const code = e instanceof McpError && Number.isInteger(e.code) ? e.code : ErrorCode.InternalError
      return JSON.stringify({ error: { code, message: e instanceof Error ? e.message : String(e), data: e && e.data } })
    }
  }
}

/** A JS notification callback for the addon: `(method, params)`; its throws are reported, not raised. */
function notificationHandler (f) {
  if (f === undefined) return undefined
  if (typeof f !== 'function') throw new TypeError('onNotification must be a function')
  return (json) => {
    const { method, params } = JSON.parse(json)
    try {
      f(method, params)
    } catch (e) {
      process.emitWarning(`libmcp: onNotification threw: ${e && e.message}`)
    }
  }
}

/** The addon's callback for a line from the server that is not a JSON-RPC message (a banner
 * printed on stdout): `onError(error)`, a TransportError with the line as `line`, at once; without
 * `onError`, a process warning naming the line. The engine skips the line and goes on. */
function noiseHandler (f) {
  if (f !== undefined && typeof f !== 'function') throw new TypeError('onError must be a function')
  return (line) => {
    const error = new TransportError(`the server wrote a line that is not a JSON-RPC message: ${line}`)
    error.line = line
    if (f === undefined) {
      process.emitWarning(error.message, 'libmcp')
      return
    }
    try {
      f(error)
    } catch (e) {
      process.emitWarning(`libmcp: onError threw: ${e && e.message}`)
    }
  }
}

/** The OAuth user-interaction step for the addon: `onAuthorize(authorizationUrl)` resolves to the
 * URL the authorization server redirected the user back to (sync or async). */
function authorizeHandler (f) {
  if (f === undefined) return undefined
  if (typeof f !== 'function') throw new TypeError('onAuthorize must be a function')
  return async (url) => {
    const redirect = await f(url)
    if (redirect instanceof URL) return redirect.href
    if (typeof redirect !== 'string') throw new TypeError(`onAuthorize must resolve to the redirect URL, got ${typeof redirect}`)
    return redirect
  }
}

const CLIENT_KEYS = ['name', 'version', 'protocolVersion', 'timeoutMs', 'probeTimeoutMs', 'logLevel', 'roots',
  'elicitationUrl', 'samplingTools']

function nativeOptions (transport, opts) {
  const o = { transport }
  for (const k of CLIENT_KEYS) if (opts[k] !== undefined) o[k] = opts[k]
  return o
}

/** Options of one call. */
function callOptions (opts) {
  if (opts === undefined) return {}
  if (opts === null || typeof opts !== 'object') throw new TypeError('call options must be an object')
  const { signal, timeout, onprogress, raw } = opts
  if (raw !== undefined && typeof raw !== 'boolean') throw new TypeError('raw must be a boolean')
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('signal must be an AbortSignal')
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) throw new TypeError('timeout must be a positive number of milliseconds')
  if (onprogress !== undefined && typeof onprogress !== 'function') throw new TypeError('onprogress must be a function')
  return { signal, timeout, onprogress, raw }
}

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo'

/** A result as the application wants it: without what the 2026-07-28 era adds to every result for
 * the transport (`resultType`, and `_meta` naming the server), unless `raw` asks for it as sent. */
function clean (result, raw) {
  if (raw || result === null || typeof result !== 'object') return result
  delete result.resultType
  const meta = result._meta
  if (meta !== null && typeof meta === 'object' && SERVER_INFO in meta) {
    delete meta[SERVER_INFO]
    if (Object.keys(meta).length === 0) delete result._meta
  }
  return result
}

function objectArg (v, what) {
  if (v === undefined) return {}
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${what} must be an object`)
  return v
}

function taskIdArg (id) {
  if (typeof id !== 'string' || id === '') throw new TypeError('task id must be a non-empty string')
  return id
}

/** Change notifications from the server: `for await (const {method, params} of sub)`. */
class Subscription {
  #native
  constructor (nativeSub) {
    this.#native = nativeSub
    /** What the server agreed to deliver. */
    this.acknowledged = JSON.parse(nativeSub.acknowledged)
  }

  /** The next notification, or `undefined` once the subscription has ended. */
  async next () {
    const text = await translated(() => this.#native.next())
    return text == null ? undefined : JSON.parse(text)
  }

  /** Ends the subscription; a pending `next()` resolves to `undefined`. */
  close () {
    return this.#native.close()
  }

  async * [Symbol.asyncIterator] () {
    try {
      for (let n = await this.next(); n !== undefined; n = await this.next()) yield n
    } finally {
      await this.close()
    }
  }
}

/** An MCP client connected to one server. */
class Client {
  #native
  #server

  constructor (nativeClient) {
    if (!(nativeClient instanceof native.NativeClient)) {
      throw new TypeError('use Client.connectStdio(), Client.connectHttp() or Client.connect()')
    }
    this.#native = nativeClient
    this.#server = JSON.parse(nativeClient.server())
  }

  static async #open (transport, extra, opts) {
    const handlers = [
      inputHandler(opts.onElicitation, 'onElicitation'),
      inputHandler(opts.onSampling, 'onSampling'),
      inputHandler(opts.onRoots, 'onRoots'),
      notificationHandler(opts.onNotification),
      authorizeHandler(opts.onAuthorize),
      noiseHandler(opts.onError),
    ]
    const o = { ...nativeOptions(transport, opts), ...extra }
    const c = await translated(() => native.connect(JSON.stringify(o), ...handlers), transport === 'stdio' ? 'spawn' : 'connect')
    return new Client(c)
  }

  /** Spawns `command args...` and connects over its stdin/stdout. `opts`: `env`, `cwd`,
   * `stderr` (`'inherit'`, the default: each line the server writes to its stderr is an engine
   * diagnostic, `info` of target `libmcp::child_stderr`, see `setEngineLog`; or `'ignore'`), plus
   * the client options of `connect`. */
  static connectStdio (command, args = [], opts = {}) {
    if (typeof command !== 'string' || command === '') throw new TypeError('command must be a non-empty string')
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new TypeError('args must be an array of strings')
    objectArg(opts, 'options')
    return Client.#open('stdio', { command, args, env: opts.env, cwd: opts.cwd, stderr: opts.stderr }, opts)
  }

  /** Connects to a Streamable HTTP endpoint. `opts`: `headers`; `oauth` (`{redirectUri,
   * clientName?, clientMetadataUrl?, clientUri?, offlineAccess?, preRegistered?: {clientId,
   * clientSecret?, issuer?}}`) to authorize with OAuth 2.1 when the server asks (401, or 403
   * insufficient_scope), with `onAuthorize(authorizationUrl)` resolving to the redirect URL the
   * user came back with (without it the authorization URL is fetched and its redirect followed);
   * plus the client options of `connect`. */
  static connectHttp (url, opts = {}) {
    if (url instanceof URL) url = url.href
    if (typeof url !== 'string') throw new TypeError('url must be a string or a URL')
    objectArg(opts, 'options')
    if (opts.oauth !== undefined) objectArg(opts.oauth, 'oauth')
    return Client.#open('http', { url, headers: opts.headers, oauth: opts.oauth }, opts)
  }

  /** `{command, args, env, cwd}` (stdio) or `{url, headers}` (HTTP), plus client options: `name`,
   * `version`, `protocolVersion` (pins the era; default: probe), `timeoutMs`, `logLevel`, `roots`,
   * `onElicitation`, `onSampling`, `onRoots` (async functions of the request params),
   * `onNotification(method, params)` (every notification: list changes, logs, progress),
   * `onError(error)` (at once, for a line from the server that is not a JSON-RPC message),
   * `elicitationUrl`, `samplingTools`. */
  static connect (opts) {
    objectArg(opts, 'options')
    if (opts.url !== undefined) return Client.connectHttp(opts.url, opts)
    return Client.connectStdio(opts.command, opts.args, opts)
  }

  /**
   * What the client learned at connect: `{era, protocolVersion, supportedVersions, capabilities,
   * serverInfo, instructions}`, every key present (`null` where the server sent nothing), the same
   * object as on every libmcp host. A copy: changing it changes nothing.
   */
  get server () { return structuredClone(this.#server) }
  /** `'modern'` or `'legacy'`. */
  get era () { return this.#server.era }
  /** The protocol version in use. */
  get protocolVersion () { return this.#server.protocolVersion }
  /** The server's capabilities. */
  get serverCapabilities () { return this.#server.capabilities }
  /** The server's implementation object (`null` when it sent none). */
  get serverInfo () { return this.#server.serverInfo }
  /** The server's instructions (`null` when it sent none). */
  get instructions () { return this.#server.instructions }
  /** The process id of a spawned server. */
  get serverPid () { return this.#native.serverPid ?? undefined }

  async #call (op, params, opts) {
    const { signal, timeout, onprogress } = callOptions(opts)
    if (signal?.aborted) throw new CancelledError()
    const id = signal ? nextCallId() : 0
    const abort = () => this.#native.cancel(id)
    signal?.addEventListener('abort', abort, { once: true })
    const progress = onprogress && ((json) => {
      try { onprogress(JSON.parse(json)) } catch {}
    })
    try {
      const result = await translated(() => {
        const { text, strings } = stringifyWithStrings(params)
        return this.#native.call(op, text, strings, id, timeout, progress)
      })
      return parseWithStrings(result.text, result.strings)
    } finally {
      signal?.removeEventListener('abort', abort)
    }
  }

  /** `#call` for a typed method: the result `clean`ed unless `opts.raw`. */
  async #result (op, params, opts) {
    return clean(await this.#call(op, params, opts), opts && opts.raw)
  }

  async #list (method, key, opts) {
    return { [key]: await this.#call('list', { method }, opts) }
  }

  /** Every tool (all pages): `{tools}`. */
  listTools (opts) { return this.#list('tools/list', 'tools', opts) }
  /** Every resource: `{resources}`. */
  listResources (opts) { return this.#list('resources/list', 'resources', opts) }
  /** Every resource template: `{resourceTemplates}`. */
  listResourceTemplates (opts) { return this.#list('resources/templates/list', 'resourceTemplates', opts) }
  /** Every prompt: `{prompts}`. */
  listPrompts (opts) { return this.#list('prompts/list', 'prompts', opts) }

  /** Calls a tool: `callTool(name, args, opts)` or `callTool({name, arguments}, opts)`; input the
   * server asks for is answered through the handlers. Resolves to the CallToolResult (a tool
   * error is a result with `isError: true`, not a rejection). This and `readResource`,
   * `getPrompt` and `complete` leave out what the modern era adds for the transport (`resultType`,
   * `_meta` naming the server) unless `opts.raw` is true. */
  callTool (name, args, opts) {
    if (name !== null && typeof name === 'object') [name, args, opts] = [name.name, name.arguments, args]
    if (typeof name !== 'string') throw new TypeError('tool name must be a string')
    return this.#result('tools/call', { name, arguments: objectArg(args, 'tool arguments') }, opts)
  }

  /** Reads a resource: `readResource(uri, opts)` or `readResource({uri}, opts)`. */
  readResource (uri, opts) {
    if (uri !== null && typeof uri === 'object' && !(uri instanceof URL)) uri = uri.uri
    if (uri instanceof URL) uri = uri.href
    if (typeof uri !== 'string') throw new TypeError('uri must be a string')
    return this.#result('resources/read', { uri }, opts)
  }

  /** Gets a prompt: `getPrompt(name, args, opts)` or `getPrompt({name, arguments}, opts)`. */
  getPrompt (name, args, opts) {
    if (name !== null && typeof name === 'object') [name, args, opts] = [name.name, name.arguments, args]
    if (typeof name !== 'string') throw new TypeError('prompt name must be a string')
    return this.#result('prompts/get', { name, arguments: objectArg(args, 'prompt arguments') }, opts)
  }

  /** `completion/complete` with `{ref, argument: {name, value}, context?: {arguments}}`. */
  complete (params, opts) {
    objectArg(params, 'complete params')
    if (!params.ref || !params.argument) throw new TypeError('complete needs ref and argument')
    return this.#result('completion/complete', params, opts)
  }

  /** Calls a tool offering to run it as a task (the tasks extension at 2026-07-28, `params.task`
   * at 2025-11-25); input the server needs before the task exists is answered first. The server
   * decides: resolves to `{task}` (follow it with `waitTask`, `getTask`, `cancelTask`) or, when it
   * answered at once, `{result}`. */
  callToolAsTask (name, args, opts) {
    if (name !== null && typeof name === 'object') [name, args, opts] = [name.name, name.arguments, args]
    if (typeof name !== 'string') throw new TypeError('tool name must be a string')
    return this.#call('tasks/call', { name, arguments: objectArg(args, 'tool arguments') }, opts)
  }

  /** Calls a tool as a task (when the server makes one) and resolves to its CallToolResult once
   * it ends, like `callToolAsTask` then `waitTask`. */
  async callToolTask (name, args, opts) {
    if (name !== null && typeof name === 'object') [name, args, opts] = [name.name, name.arguments, args]
    const created = await this.callToolAsTask(name, args, opts)
    return created.task ? this.waitTask(created.task, opts) : created.result
  }

  /** `tasks/get`: the task's current state (`{taskId, status, statusMessage?, createdAt,
   * lastUpdatedAt, ttlMs, pollIntervalMs?, inputRequests?, result?, error?}`). */
  getTask (taskId, opts) {
    return this.#call('tasks/get', { taskId: taskIdArg(taskId) }, opts)
  }

  /** `tasks/cancel`: asks the server to cancel the task (cooperative: it may still end otherwise). */
  async cancelTask (taskId, opts) {
    await this.#call('tasks/cancel', { taskId: taskIdArg(taskId) }, opts)
  }

  /** Follows a task to its end and resolves to its CallToolResult: polls at the server's interval
   * answering its input requests through the handlers (2026-07-28), or waits on `tasks/result`
   * (2025-11-25). A failed task rejects with its McpError, a cancelled one with CancelledError
   * (at 2025-11-25: with the server's error for `tasks/result`).
   * Aborting `signal` (or the timeout) stops the wait, not the task (see `cancelTask`). */
  waitTask (task, opts) {
    if (typeof task === 'string') task = { taskId: task, status: 'working', createdAt: '', lastUpdatedAt: '' }
    objectArg(task, 'task')
    taskIdArg(task.taskId)
    return this.#call('tasks/wait', { task }, opts)
  }

  /** One page of `tasks/list` (2025-11-25; the extension has no list): `{tasks, nextCursor?}`. */
  listTasks (params, opts) {
    const { cursor } = objectArg(params, 'listTasks params')
    if (cursor !== undefined && typeof cursor !== 'string') throw new TypeError('cursor must be a string')
    return this.#call('request', { method: 'tasks/list', params: cursor === undefined ? {} : { cursor } }, opts)
  }

  /** Every skill the server offers (the skills extension, SEP-2640: `skills/list`, all pages):
   * `{skills: [{uri, frontmatter, resources}]}`. Listing reads no skill file. */
  async listSkills (opts) {
    return { skills: await this.#call('skills/list', {}, opts) }
  }

  /** `skills/get`: the entry of the skill whose `SKILL.md` is at `uri`. */
  getSkill (uri, opts) {
    if (typeof uri !== 'string') throw new TypeError('skill uri must be a string')
    return this.#call('skills/get', { uri }, opts)
  }

  /** Reads the file at `uri` (default: its `SKILL.md`) of the skill `entry` describes and
   * resolves to its bytes (a Buffer) once they match the entry (size, digest, and for `SKILL.md`
   * the frontmatter); a mismatch rejects with an McpError naming it, and the content is dropped. */
  async readSkillFile (entry, uri = entry && entry.uri, opts) {
    objectArg(entry, 'skill entry')
    if (typeof uri !== 'string') throw new TypeError('skill file uri must be a string')
    const { blob } = await this.#call('skills/read', { entry, uri }, opts)
    return Buffer.from(blob, 'base64')
  }

  /** Checks that the server answers; resolves to `{}`. `ping` on a legacy connection; the modern
   * era (2026-07-28) has no `ping`, so there it sends `server/discover`, the cheapest request a
   * modern server answers. */
  async ping (opts) {
    if (this.era === 'modern') await this.#call('request', { method: 'server/discover', params: {} }, opts)
    else await this.#call('ping', {}, opts)
    return {}
  }

  /** Sends a request and answers its input rounds; the raw result. */
  call (method, params, opts) {
    if (typeof method !== 'string') throw new TypeError('method must be a string')
    return this.#call('call', { method, params: objectArg(params, 'params') }, opts)
  }

  /** Sends one request as-is (no input rounds: an `input_required` result comes back). */
  request (method, params, opts) {
    if (typeof method !== 'string') throw new TypeError('method must be a string')
    return this.#call('request', { method, params: objectArg(params, 'params') }, opts)
  }

  /** Subscribes to change notifications, in either era (a modern `subscriptions/listen` stream,
   * or a legacy session's notifications plus `resources/subscribe`). `filter`:
   * `{toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions: [uri],
   * taskIds: [id]}`. `taskIds` follows tasks' status: `notifications/tasks` from a 2026-07-28 server
   * (the listen request declares the tasks extension), `notifications/tasks/status` from a
   * 2025-11-25 session; both carry the task as `params`. */
  async subscribe (filter) {
    objectArg(filter, 'subscription filter')
    return new Subscription(await translated(() => this.#native.subscribe(JSON.stringify(filter))))
  }

  /** Closes the connection; a spawned server is stopped and reaped. */
  close () {
    return this.#native.close()
  }
}

module.exports = { Client, Subscription, clean }
