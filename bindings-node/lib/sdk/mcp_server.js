'use strict'
// `McpServer` as the official TypeScript SDK (1.x) shapes it, on this package's Server: the SDK's
// registration calls and config keys, callbacks called `(args, extra)` (or `(extra)` without a
// schema), the handles they return, `server.server` (the low-level Server of low_level_server.js,
// over this McpServer's own server) for the calls handlers make on it, and `connect(transport)`. Zod schemas are parsed by Zod (lib/zod.js) and errors are
// answered as the SDK answers them. Deliberate differences are listed in README.md.

const { Server } = require('../server')
const { McpError, ErrorCode } = require('../errors')
const zod = require('../zod')
const { runWithExtra } = require('./extra')
const { ResourceTemplate, completerOf, completionResult, NONE } = require('./completions')
const { RegisteredHandle } = require('./handles')
const { urlElicitationRequired } = require('./url_elicitation')
const { taskOptions, ExperimentalMcpServerTasks } = require('./tasks')
const { serverOfMcpServer } = require('./low_level_server')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** The tool error of a thrown value, as the SDK answers one: its message as the text (an McpError
 * reads `MCP error CODE: ...`). */
function toolError (e) {
  return { content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }], isError: true }
}

/** The SDK's listing of a tool without an input schema. */
const EMPTY_OBJECT = Object.freeze({ type: 'object', properties: {} })

/** Calls `f(extra)` for request `ctx`, every failure a tool error (a URL elicitation still
 * required stays a JSON-RPC error, as in the SDK). */
function toolCall (ctx, owner, f) {
  let out
  try {
    out = runWithExtra(ctx, owner, f)
  } catch (e) {
    return toolFailure(e)
  }
  return out.catch(toolFailure)
}

function toolFailure (e) {
  if (e instanceof McpError && e.code === ErrorCode.UrlElicitationRequired) throw e
  const sdkError = urlElicitationRequired(e)
  if (sdkError !== undefined) throw sdkError
  return toolError(e)
}

/** An MCP server with the official TypeScript SDK's `McpServer` API. `serverInfo` is `{name,
 * version, ...}`; `options`: `instructions`, `capabilities` (checked; what is offered follows from
 * the registrations) and any option of this package's `Server`. */
class McpServer {
  #server
  #prompts = new Map()
  #templates = new Map()
  #completing = false
  #listing = false
  #experimental
  constructor (serverInfo, options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}`)
    const { taskStore, rest: { capabilities, ...rest } } = taskOptions(options)
    if (capabilities !== undefined && (capabilities === null || typeof capabilities !== 'object')) {
      throw new TypeError(`capabilities must be an object, got ${describe(capabilities)}`)
    }
    this.#server = new Server(serverInfo, rest)
    /** The low-level Server over this one, as handlers reach it (`elicitInput`,
     * `createMessage`, ...). */
    this.server = serverOfMcpServer(this.#server)
    this.#experimental = { tasks: new ExperimentalMcpServerTasks(this, taskStore) }
  }

  /** The SDK's experimental features: `tasks.registerToolTask` (tasks.js). */
  get experimental () { return this.#experimental }

  /** This package's Server underneath (its own API: `serveHttp`, `mount`, skills, ...). */
  get native () { return this.#server }

  /** Registers a tool: `config` is `{title, description, inputSchema, outputSchema, annotations,
   * _meta}` (Zod raw shapes or schemas, or JSON Schema); `cb(args, extra)`, or `cb(extra)` when
   * there is no input schema. */
  registerTool (name, config, cb) {
    if (config === null || typeof config !== 'object') throw new TypeError(`registerTool: config must be an object, got ${describe(config)}`)
    const ops = {
      native: (c, f) => [this.#toolConfig(c), this.#toolHandler(c, f)],
      register: (n, c, h) => this.#server.tool(n, c, h),
    }
    return new RegisteredHandle('tool', name, config, cb, ops, TOOL_UPDATES)
  }

  /** The SDK's older `tool(name, description?, paramsSchema?, annotations?, cb)`. */
  tool (name, ...rest) {
    const config = {}
    if (typeof rest[0] === 'string') config.description = rest.shift()
    if (rest.length > 1 && zod.isRawShape(rest[0])) config.inputSchema = rest.shift()
    if (rest.length > 1 && rest[0] !== null && typeof rest[0] === 'object') config.annotations = rest.shift()
    return this.registerTool(name, config, rest[0])
  }

  #toolConfig (config) {
    const out = {}
    for (const k of ['title', 'description', 'outputSchema', 'annotations', '_meta', 'icons', 'execution']) {
      if (config[k] !== undefined) out[k] = config[k]
    }
    out.inputSchema = config.inputSchema === undefined ? EMPTY_OBJECT : config.inputSchema
    // The SDK lists every tool of registerTool with this (its tasks go through registerToolTask).
    if (out.execution === undefined) out.execution = { taskSupport: 'forbidden' }
    return out
  }

  #toolHandler (config, cb) {
    if (typeof cb !== 'function') throw new TypeError(`the tool callback must be a function, got ${describe(cb)}`)
    const owner = this.#server
    if (config.inputSchema === undefined) return (_args, ctx) => toolCall(ctx, owner, (extra) => cb(extra))
    return (args, ctx) => toolCall(ctx, owner, (extra) => cb(args, extra))
  }

  /** Registers a resource at a fixed URI (`cb(uri, extra)`) or a `ResourceTemplate` (`cb(uri,
   * variables, extra)`); `config` is its metadata (`title`, `description`, `mimeType`, ...). */
  registerResource (name, uriOrTemplate, config, cb) {
    if (config === null || typeof config !== 'object') throw new TypeError(`registerResource: config must be an object, got ${describe(config)}`)
    const owner = this.#server
    const callback = (f) => {
      if (typeof f !== 'function') throw new TypeError(`the resource callback must be a function, got ${describe(f)}`)
      return f
    }
    if (uriOrTemplate instanceof ResourceTemplate) {
      const template = uriOrTemplate
      const ops = {
        native: (c, f) => [c, (uri, vars, ctx) => runWithExtra(ctx, owner, (extra) => callback(f)(uri, vars, extra))],
        register: (n, c, h) => owner.resourceTemplate(n, template.template, c, h),
      }
      callback(cb)
      const handle = new RegisteredHandle('resourceTemplate', name, config, cb, ops, RESOURCE_UPDATES)
      handle.resourceTemplate = template
      this.#templates.set(template.template, handle)
      if (template.hasCompleters) this.#enableCompletion()
      if (template.listCallback) this.#enableListing()
      return handle
    }
    if (typeof uriOrTemplate !== 'string') throw new TypeError(`registerResource: expected a URI string or a ResourceTemplate, got ${describe(uriOrTemplate)}`)
    callback(cb)
    const ops = {
      native: (c, f) => [c, (uri, ctx) => runWithExtra(ctx, owner, (extra) => callback(f)(uri, extra))],
      register: (n, c, h) => owner.resource(n, uriOrTemplate, c, h),
    }
    return new RegisteredHandle('resource', name, config, cb, ops, RESOURCE_UPDATES)
  }

  /** The SDK's older `resource(name, uriOrTemplate, metadata?, cb)`. */
  resource (name, uriOrTemplate, ...rest) {
    const config = rest.length > 1 ? rest.shift() : {}
    return this.registerResource(name, uriOrTemplate, config, rest[0])
  }

  /** Registers a prompt: `config` is `{title, description, argsSchema}` (a Zod raw shape, whose
   * fields may be `completable`); `cb(args, extra)`, or `cb(extra)` without `argsSchema`. */
  registerPrompt (name, config, cb) {
    if (config === null || typeof config !== 'object') throw new TypeError(`registerPrompt: config must be an object, got ${describe(config)}`)
    const owner = this.#server
    const ops = {
      native: (c, f) => {
        if (typeof f !== 'function') throw new TypeError(`the prompt callback must be a function, got ${describe(f)}`)
        const call = c.argsSchema === undefined
          ? (_args, ctx) => runWithExtra(ctx, owner, (extra) => f(extra))
          : (args, ctx) => runWithExtra(ctx, owner, (extra) => f(args, extra))
        return [c, call]
      },
      register: (n, c, h) => owner.prompt(n, c, h),
    }
    const handle = new RegisteredHandle('prompt', name, config, cb, ops, PROMPT_UPDATES)
    this.#prompts.set(name, handle)
    const shape = config.argsSchema && zod.shapeOf(zod.toZod(config.argsSchema, 'argsSchema'))
    if (shape && Object.values(shape).some((f) => completerOf(f) || completerOf(unwrapOptional(f)))) this.#enableCompletion()
    return handle
  }

  /** The SDK's older `prompt(name, description?, argsSchema?, cb)`. */
  prompt (name, ...rest) {
    const config = {}
    if (typeof rest[0] === 'string') config.description = rest.shift()
    if (rest.length > 1) config.argsSchema = rest.shift()
    return this.registerPrompt(name, config, rest[0])
  }

  /** Lists the resources of every template's `list` callback after the registered resources (the
   * engine's resource lister, which pages the whole list). */
  #enableListing () {
    if (this.#listing) return
    this.#listing = true
    const owner = this.#server
    owner.resourceLister((_params, ctx) => runWithExtra(ctx, owner, (extra) => this.#listTemplates(extra)))
  }

  /** As the SDK lists them: each resource a template's `list` gives, over the template's metadata;
   * removed and disabled templates are left out (the engine serves neither). */
  async #listTemplates (extra) {
    const resources = []
    for (const handle of this.#templates.values()) {
      const list = handle.resourceTemplate.listCallback
      if (!list || !handle.enabled) continue
      const result = await list(extra)
      for (const resource of result.resources) resources.push({ ...handle.config, ...resource })
    }
    return { resources }
  }

  #enableCompletion () {
    if (this.#completing) return
    this.#completing = true
    this.#server.completion((params) => this.#complete(params))
  }

  async #complete (params) {
    const { ref, argument = {}, context } = params
    if (ref && ref.type === 'ref/prompt') {
      const handle = this.#prompts.get(ref.name)
      if (handle === undefined || handle.removed) throw new McpError(ErrorCode.InvalidParams, `Prompt ${ref.name} not found`)
      if (!handle.enabled) throw new McpError(ErrorCode.InvalidParams, `Prompt ${ref.name} disabled`)
      const schema = handle.config.argsSchema
      const shape = schema && zod.shapeOf(zod.toZod(schema, 'argsSchema'))
      const field = shape && shape[argument.name]
      const complete = completerOf(field) ?? completerOf(unwrapOptional(field))
      return complete ? completionResult(await complete(argument.value, context)) : NONE
    }
    if (ref && ref.type === 'ref/resource') {
      const handle = this.#templates.get(ref.uri)
      if (handle === undefined || handle.removed) throw new McpError(ErrorCode.InvalidParams, `Resource template ${ref.uri} not found`)
      const complete = handle.resourceTemplate.completeCallback(argument.name)
      return complete ? completionResult(await complete(argument.value, context)) : NONE
    }
    throw new McpError(ErrorCode.InvalidParams, `Invalid completion reference: ${ref}`)
  }

  /** Sends `notifications/message` in the request being handled (`sessionId` is not needed: the
   * message goes where the request came from). */
  sendLoggingMessage (params) {
    return this.server.sendLoggingMessage(params)
  }

  /** The engine announces list changes itself: these do nothing. */
  sendToolListChanged () {}
  sendResourceListChanged () {}
  sendPromptListChanged () {}

  /** Serves on `transport` (this package's StdioServerTransport or StreamableHTTPServerTransport). */
  connect (transport) {
    return this.server.connect(transport)
  }

  /** Whether `connect` was called. */
  isConnected () {
    return this.server.transport !== undefined
  }

  /** Stops serving. */
  close () {
    return this.server.close()
  }
}

/** A Zod field's inner schema when it is optional (the SDK looks through `.optional()` for a
 * completable). */
function unwrapOptional (field) {
  if (field === null || typeof field !== 'object') return undefined
  if (field._zod !== undefined) return field._zod.def.type === 'optional' ? field._zod.def.innerType : undefined
  return field._def && field._def.typeName === 'ZodOptional' ? field._def.innerType : undefined
}

/** The keys of `handle.update(updates)` for each kind, mapped to the config key they set. */
const TOOL_UPDATES = { title: 'title', description: 'description', paramsSchema: 'inputSchema', outputSchema: 'outputSchema', annotations: 'annotations', _meta: '_meta' }
const RESOURCE_UPDATES = { title: 'title', metadata: null }
const PROMPT_UPDATES = { title: 'title', description: 'description', argsSchema: 'argsSchema' }

module.exports = { McpServer }
