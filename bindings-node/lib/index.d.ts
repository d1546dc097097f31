// Types of the libmcp package (lib/*.js). MCP objects (Tool, CallToolResult, ...) are typed
// loosely as JSON objects: they are the protocol's own shapes, passed through unchanged.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: any }

/** The version of the package and of its native engine ("MAJOR.MINOR.PATCH", one number for all of libmcp). */
export declare const version: string

/** A severity of the engine's diagnostics, least severe first. */
export type EngineLogLevel = 'debug' | 'info' | 'warn' | 'error'

/** One diagnostic of the engine, as `setEngineLog`'s listener gets it. */
export interface EngineLogEntry {
  level: EngineLogLevel
  /** The engine module that emitted it: `libmcp::server::deadline`, `libmcp::http`, `libmcp::child_stderr`, ... */
  target: string
  message: string
  /** The event's other fields (`{method: 'tools/call'}`): numbers and booleans as such, anything else as text. */
  fields: { [name: string]: string | number | boolean }
}

/**
 * Sends the engine's own diagnostics (a handler past `handlerTimeoutMs`, a refused result or HTTP
 * request, Redis trouble, a child server's stderr) of severity `options.level` (default 'warn') or
 * more to `listener`, on the JS thread; `null` stops. One listener per process; nothing is printed
 * without one.
 */
export declare function setEngineLog (listener: ((entry: EngineLogEntry) => void) | null, options?: { level?: EngineLogLevel }): void

/** JSON-RPC error codes used by MCP. */
export declare const ErrorCode: Readonly<{
  ConnectionClosed: -32000
  RequestTimeout: -32001
  ParseError: -32700
  InvalidRequest: -32600
  MethodNotFound: -32601
  InvalidParams: -32602
  InternalError: -32603
  ResourceNotFound: -32002
  HeaderMismatch: -32020
  MissingRequiredClientCapability: -32021
  UnsupportedProtocolVersion: -32022
  UrlElicitationRequired: -32042
}>

export type ErrorKind = 'rpc' | 'transport' | 'closed' | 'timeout' | 'cancelled' | 'protocol' | 'negotiation' |
  'authorization' | 'invalidArgument' | 'other'

/** Any error of this package; `code` and `data` are the JSON-RPC error's when the peer sent one. */
export declare class McpError extends Error {
  constructor (message: string, options?: { code?: number, data?: unknown, kind?: ErrorKind })
  /** The official TypeScript SDK's order: the message becomes `MCP error CODE: MESSAGE`. */
  constructor (code: number, message: string, data?: unknown)
  kind: ErrorKind
  /** The JSON-RPC error's code; on a TransportError caused by the OS, Node's name of the OS error
   * (`'EADDRINUSE'`, `'ECONNREFUSED'`, `'ENOENT'`, ...), with `errno` and `syscall`. */
  code?: number | string
  errno?: number
  syscall?: string
  data?: unknown
  /** The -32021 error for a request lacking the client capabilities `required`. */
  static missingCapability (required: JsonObject): McpError
}
/** Moving bytes failed, or the connection closed. */
export declare class TransportError extends McpError {}
/** No answer within the timeout. */
export declare class TimeoutError extends McpError {}
/** The call was cancelled. */
export declare class CancelledError extends McpError {}
/** A value given to the API is invalid (definition, options). */
export declare class InvalidArgumentError extends McpError {}
/** The request belongs to no session (`ctx.sessionNotifier()` of a 2026-07-28 request, or of a
 * legacy one served without a session). */
export declare class NoSessionError extends McpError {}
/** A handle on the legacy session of a request (`ctx.sessionNotifier()`), usable after the request
 * was answered. Throws `TransportError` once the session ended, `InvalidArgumentError` for a method
 * the session's revision lacks, params that do not fit it, or an undeclared capability. */
export interface SessionNotifier {
  /** The protocol revision negotiated on the session. */
  readonly protocolVersion: string
  /** Whether the session is still open. */
  readonly isOpen: boolean
  /** Sends the server notification `method` with `params` (none when absent). */
  notify (method: string, params?: JsonObject): void
  /** Sends `notifications/elicitation/complete` for the URL-mode elicitation `elicitationId`
   * (refused unless the client declared `elicitation.url`). */
  elicitationComplete (elicitationId: string): void
}
/** Thrown by a token verifier for a token it refuses (401 invalid_token); other throws are 503. */
export declare class InvalidTokenError extends Error {
  constructor (message?: string)
}

/** An input request: `{method, params}`. */
export interface InputRequest { method: string, params?: JsonObject }

/** A handler's answer asking the client for input (MRTR). */
export declare class InputRequired {
  constructor (requests: Record<string, InputRequest>, state?: string)
  requests: Record<string, InputRequest>
  state?: string
}
export declare function inputRequired (requests: Record<string, InputRequest>, state?: string): InputRequired
export declare function elicit (message: string, requestedSchema: JsonObject): InputRequest
export declare function elicitUrl (message: string, url: string, elicitationId?: string): InputRequest
export declare function createMessage (params: JsonObject): InputRequest
export declare function listRoots (): InputRequest

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'

/** The context of one request, given to every handler. */
export declare class Context {
  readonly requestId: string | number
  readonly method: string
  readonly params: JsonObject
  readonly meta?: JsonObject
  readonly protocolVersion: string
  readonly era: 'modern' | 'legacy'
  readonly clientCapabilities: JsonObject
  readonly clientInfo?: JsonObject
  readonly round: number
  readonly requestState?: string
  readonly inputResponses: Record<string, any>
  readonly templateVars?: Record<string, string | string[] | Record<string, string>>
  readonly auth?: { subject?: string, clientId?: string, scopes: string[], expiresAt?: number, audience: string[], claims: JsonObject }
  /** Over HTTP: the request's headers, as the official SDK's `extra.requestInfo` (names lowercase,
   * a repeated header's values joined with `, `). */
  readonly requestInfo?: { headers: Record<string, string> }
  /** The legacy HTTP session's id (`Mcp-Session-Id`), as the official SDK's `extra.sessionId`. */
  readonly sessionId?: string
  /** What the application's web server established about the caller, as the official SDK's
   * `extra.authInfo`: `req.auth` given to `handleRequest`, `options.authInfo` given to `fetch`. */
  readonly authInfo?: AuthInfo
  /** The id of the task this request runs as, once it is one. */
  readonly taskId?: string
  /** Runs the request as a task from here on if it may (a `deferTask` tool, a client that takes
   * tasks): the task id, or undefined when the request stays a plain one. */
  startTask (): string | undefined
  /** Aborts when the client cancels the request. */
  readonly signal: AbortSignal
  inputResponse (key: string): any
  /** `inputResponse(key)` checked against the `requestedSchema` it answers: throws an McpError
   * (-32602) for a malformed answer or accepted content that does not match. */
  elicitationAnswer (key: string, requestedSchema: JsonObject): any
  hasClientCapability (...path: string[]): boolean
  closeStream (): boolean
  /** A handle on the legacy session of this request, to notify it after the request is answered;
   * throws `NoSessionError` for a 2026-07-28 request or one served without a session. */
  sessionNotifier (): SessionNotifier
  progress (progress: number, total?: number, message?: string): boolean
  log (level: LogLevel, data: unknown, logger?: string): boolean
}

type Awaitable<T> = T | Promise<T>
/** A JSON Schema object (checked by the engine), or a Zod 3 or 4 schema or raw shape of Zod
 * schemas (parsed by Zod: the handler gets Zod's output; listed as the JSON Schema Zod writes). */
export type Schema = JsonObject

export interface ToolConfig {
  title?: string
  description?: string
  inputSchema?: Schema
  outputSchema?: Schema
  annotations?: JsonObject
  icons?: JsonObject[]
  /** `taskSupport` lets clients run the tool as a task (`'optional'`) or only so (`'required'`). */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required', [key: string]: any }
  /** The handler starts the task itself with `ctx.startTask()` (after gathering input), instead
   * of running inside it from the start. */
  deferTask?: boolean
  _meta?: JsonObject
}
export interface ResourceConfig {
  title?: string
  description?: string
  mimeType?: string
  size?: number
  annotations?: JsonObject
  icons?: JsonObject[]
  _meta?: JsonObject
}
export interface PromptConfig {
  title?: string
  description?: string
  arguments?: { name: string, title?: string, description?: string, required?: boolean }[]
  /** A raw shape of Zod schemas (or a Zod object) instead of `arguments`: listed as arguments
   * and parsed by Zod (the handler gets Zod's output; a failure is -32602). */
  argsSchema?: Schema
  icons?: JsonObject[]
  _meta?: JsonObject
}

export type ToolHandler = (args: any, ctx: Context) => Awaitable<JsonObject | string | InputRequired>
export type ResourceHandler = (uri: URL, ctx: Context) => Awaitable<JsonObject | InputRequired>
export type TemplateHandler = (uri: URL, variables: Record<string, any>, ctx: Context) => Awaitable<JsonObject | InputRequired>
export type PromptHandler = (args: Record<string, string>, ctx: Context) => Awaitable<JsonObject | InputRequired>
export type CompletionHandler = (params: JsonObject, ctx: Context) => Awaitable<JsonObject>
/** The handler of a request method the host answers itself (`setRequestHandler`). */
export type RequestHandler = (params: JsonObject, ctx: Context) => Awaitable<JsonObject>

/** A registration; each change tells clients the list changed. */
export interface Registered<Config = JsonObject, Handler = Function> {
  readonly kind: 'tool' | 'resource' | 'resourceTemplate' | 'prompt'
  readonly key: string
  readonly enabled: boolean
  /** Replaces the config (merged with the current one) and/or the handler. */
  update (config?: Partial<Config>, handler?: Handler): void
  disable (): void
  enable (): void
  remove (): boolean
}

export interface HttpOptions {
  host?: string
  port?: number
  path?: string
  legacySessions?: boolean
  /** Serve legacy requests without sessions (no `Mcp-Session-Id`; each request on its own). */
  legacyStateless?: boolean
  httpSse?: boolean
  /** Answer every request with one JSON body, never an event stream (the handler's progress and
   * log messages are dropped; a legacy request to the client fails at once). */
  jsonResponse?: boolean
  dnsRebindingProtection?: boolean
  allowedHosts?: string[]
  allowedOrigins?: string[]
  maxBodyBytes?: number
  /** Largest request head in bytes (default 64 KiB, at least 8192); a larger one gets HTTP 431. */
  maxHeaderBytes?: number
  /** Most header fields per request (default 100); more get HTTP 431. */
  maxHeaders?: number
  maxSessions?: number
  sessionIdleTimeoutMs?: number
  /** OAuth 2.1 resource-server mode: every request needs a bearer token `verifyToken` accepts. */
  auth?: AuthOptions
  /** Where legacy sessions are recorded instead of this process's memory (share one between
   * instances to let any of them serve a session). Not with a server made with `redis`. */
  sessionStore?: SessionStore
  /** Where the SSE events of legacy sessions are recorded for resumption with `Last-Event-ID`
   * (streams that ended, or that another instance sent, are replayed from it). Not with `redis`. */
  eventStore?: EventStore
}
/** A legacy session as the engine records it (the JSON form of the core's SessionRecord). */
export interface SessionRecord {
  id: string
  protocolVersion: string
  clientCapabilities: JsonObject
  clientInfo?: JsonObject
  initialized: boolean
  logLevel?: string
  subscriptions: string[]
  principal?: { subject?: string | null, clientId?: string | null }
  eventTag: string
  createdMs: number
  lastSeenMs: number
}
/** Where legacy sessions are recorded. A throw (or rejection) gives the request 503 naming it. */
export interface SessionStore {
  /** The record `save` was given last for `id`, or null when there is none. */
  load (id: string): Awaitable<SessionRecord | null | undefined>
  /** Creates or replaces the record of `record.id`. */
  save (record: SessionRecord): Awaitable<void>
  /** Deletes the record of `id`; whether there was one. */
  remove (id: string): Awaitable<boolean>
}
/** One SSE event of a legacy session: the `seq`-th message (from 1) of stream `stream`. */
export interface StoredEvent {
  stream: number
  seq: number
  kind: 'result' | 'error' | 'notification' | 'request'
  /** The JSON-RPC error code of an `error` event. */
  errorCode?: number
  /** The message's JSON text. */
  data: string
}
/** Where the SSE events of legacy sessions are recorded. Calls for one session come one after the
 * other, in order. A throw from `append` or `removeSession` reaches `setEngineLog`; from `replay`,
 * the resumption gets 503 and the throw reaches `setEngineLog`. */
export interface EventStore {
  append (session: string, event: StoredEvent): Awaitable<void>
  /** The events of `stream` after `after` (0: the whole stream) in order, `'evicted'` when some of
   * them were dropped, `'unknown'` when `after` was never recorded. */
  replay (session: string, stream: number, after: number): Awaitable<Array<Omit<StoredEvent, 'stream'>> | 'evicted' | 'unknown'>
  /** Forgets every event of `session` (it ended or expired). */
  removeSession (session: string): Awaitable<void>
}
/** What a token verifier knows about an accepted token; the engine checks expiry, audience and
 * scopes on it, and handlers see it as `ctx.auth`. */
export interface TokenInfo {
  subject?: string
  clientId?: string
  scopes?: string[]
  /** Seconds since the Unix epoch. */
  expiresAt?: number
  audience?: string[]
  claims?: JsonObject
}
export interface AuthOptions {
  /** The endpoint's canonical URL (the token audience, and the metadata's `resource`). */
  resource: string
  /** Checks a bearer token: its facts, or null (or a thrown InvalidTokenError) to refuse it. */
  verifyToken: (token: string) => Awaitable<TokenInfo | null | undefined>
  authorizationServers?: string[]
  scopesSupported?: string[]
  requiredScopes?: string[]
  /** Extra scopes per tool name (403 insufficient_scope without them). */
  toolScopes?: Record<string, string[]>
  resourceName?: string
  resourceDocumentation?: string
  /** Whether a token must name this resource in its audience (default true). */
  checkAudience?: boolean
  verifyTimeoutMs?: number
}
/** The caller as the application's authentication established it (the official SDK's AuthInfo
 * shape; passed through as the application set it). */
export interface AuthInfo {
  token?: string
  clientId?: string
  scopes?: string[]
  expiresAt?: number
  resource?: URL
  extra?: Record<string, unknown>
  [key: string]: unknown
}
/** The options of a mounted endpoint: those of `serveHttp` but its listener's own. Host/Origin
 * checking is off by default and on when `allowedHosts` or `allowedOrigins` is given. */
export type MountOptions = Omit<HttpOptions, 'host' | 'port' | 'path' | 'maxHeaderBytes' | 'maxHeaders'>
/** What the mount reads of a node:http IncomingMessage (Express's request, Fastify's `request.raw`). */
export interface IncomingMessageLike {
  readonly method?: string
  readonly url?: string
  readonly rawHeaders: string[]
  readonly readableEnded?: boolean
  /** Set by the application's authentication middleware; handlers see it as `ctx.authInfo`. */
  auth?: unknown
  on (event: string, listener: (...args: any[]) => void): unknown
}
/** What the mount uses of a node:http ServerResponse (Express's response, Fastify's `reply.raw`). */
export interface ServerResponseLike {
  writeHead (status: number, headers?: any): unknown
  write (chunk: any): boolean
  end (chunk?: any): unknown
  on (event: string, listener: (...args: any[]) => void): unknown
}
/** The MCP endpoint mounted in the application's web server (`server.mount()`); both methods are
 * bound. */
export interface MountedEndpoint {
  /** Answers a node:http request; `parsedBody` is the body a middleware parsed (`req.body`). */
  handleRequest (req: IncomingMessageLike, res: ServerResponseLike, parsedBody?: unknown): Promise<void>
  /** Answers a web-standard Request (Hono: `c.req.raw`); an event stream's body is a ReadableStream. */
  fetch (request: Request, options?: { authInfo?: unknown }): Promise<Response>
  /** Resolves once the endpoint is ready; rejects when it cannot be made (Redis not answering). */
  readonly ready: Promise<void>
  /** Ends every session and stream of the endpoint. */
  close (): void
}
export interface HttpServing {
  readonly url: string
  readonly port: number
  /** Resolves when the server has stopped. */
  readonly closed: Promise<void>
  close (): Promise<void>
}

/** A task as the engine keeps it (the JSON form of the core's TaskRecord). */
export interface TaskRecord {
  id: string
  status: TaskStatus
  statusMessage?: string
  method: string
  createdMs: number
  updatedMs: number
  ttlMs?: number
  pollIntervalMs?: number
  inputRequests?: JsonObject
  result?: JsonObject
  error?: JsonObject
  owner?: { subject?: string | null, clientId?: string | null }
  legacy: boolean
}
/** Where task records live instead of memory (e.g. a database several instances share). `get`
 * resolves to the record or null; expired records are never served, and a store should drop them. */
export interface TaskStore {
  create (record: TaskRecord): Awaitable<void>
  put (record: TaskRecord): Awaitable<void>
  get (id: string): Awaitable<TaskRecord | null | undefined>
  list (): Awaitable<TaskRecord[]>
}
export interface TaskOptions {
  /** How long a task stays readable after its creation (default one hour). */
  ttlMs?: number
  /** The poll interval clients are given (default 500). */
  pollIntervalMs?: number
  /** The in-memory store's bound on live tasks (default 10000); not with `store`. */
  maxTasks?: number
  store?: TaskStore
}

/** A file of a skill besides its SKILL.md. */
export interface SkillFile {
  /** Its path in the skill's directory (`references/FORMS.md`): relative, `/`-separated. */
  path: string
  mimeType: string
  /** Text (sent as UTF-8) or bytes. */
  content: string | Uint8Array
}
/** A skill to serve (the skills extension, SEP-2640), as `skill://NAME/...` resources. */
export interface SkillDefinition {
  /** The text of its SKILL.md, whose frontmatter gives its `name` and `description`. */
  skillMd: string
  files?: SkillFile[]
}
export interface ServerOptions {
  instructions?: string
  tasks?: TaskOptions
  /** Skills to serve; a SKILL.md or path the engine refuses throws an InvalidArgumentError. */
  skills?: SkillDefinition[]
  /** A Redis URL (`redis://host:port/db`) keeping tasks, `requestState` keys, list changes and,
   * when served over HTTP, legacy sessions, their events and answers to server requests, shared
   * by every instance on it. A bad URL throws an InvalidArgumentError; a Redis that does not
   * answer a TransportError (from the constructor, or from `serveHttp`). Not with
   * `tasks.store` or `tasks.maxTasks`. */
  redis?: string
  /** Items per page of `tools/list` and the other lists (default 100). */
  pageSize?: number
  /** Largest accepted message in bytes (default 8 MiB); a larger one gets -32600 and the
   * connection goes on. Over HTTP the body limit is `maxBodyBytes` of `serveHttp`. */
  maxMessageBytes?: number
  /** Most requests one session may have in flight (default 1024); one more gets -32603 with
   * `data.maxInFlight`. */
  maxInFlight?: number
  /** Most input rounds one legacy request may take (default 10). */
  maxInputRounds?: number
  /** Largest `requestState` a handler may return, in bytes before sealing (default 256 KiB): a
   * larger one fails the request with -32603, a longer token from a client gets -32602. */
  maxRequestStateBytes?: number
  /** How long a sealed `requestState` stays valid, in ms (default 10 minutes). */
  stateTtlMs?: number
  /** How long a legacy server-to-client request waits for the client, in ms (default 5 minutes). */
  clientRequestTimeoutMs?: number
  /** The longest a handler may take to answer, in ms (no limit by default): when it passes first
   * the request gets -32603 with `data.handlerTimeoutMs`, `ctx.signal` aborts and the handler's
   * later answer is dropped. */
  handlerTimeoutMs?: number
}

/** An MCP server serving both protocol eras. */
export declare class Server {
  constructor (info: { name: string, version: string, title?: string, description?: string, websiteUrl?: string, icons?: JsonObject[], instructions?: string }, options?: ServerOptions)
  tool (name: string, config: ToolConfig, handler: ToolHandler): Registered<ToolConfig, ToolHandler>
  tool (name: string, handler: ToolHandler): Registered<ToolConfig, ToolHandler>
  resource (name: string, uri: string, config: ResourceConfig, handler: ResourceHandler): Registered<ResourceConfig, ResourceHandler>
  resource (name: string, uri: string, handler: ResourceHandler): Registered<ResourceConfig, ResourceHandler>
  resourceTemplate (name: string, uriTemplate: string, config: ResourceConfig, handler: TemplateHandler): Registered<ResourceConfig, TemplateHandler>
  resourceTemplate (name: string, uriTemplate: string, handler: TemplateHandler): Registered<ResourceConfig, TemplateHandler>
  prompt (name: string, config: PromptConfig, handler: PromptHandler): Registered<PromptConfig, PromptHandler>
  prompt (name: string, handler: PromptHandler): Registered<PromptConfig, PromptHandler>
  completion (handler: CompletionHandler): void
  /** Answers requests for `method` (null removes the handler): a method the specification does
   * not define, or a feature method it lets a host answer itself (`tools/list`, `tools/call`,
   * `resources/*` but subscribe, `prompts/*`, `completion/complete`, `tasks/get`, `tasks/result`,
   * `tasks/list`, `tasks/cancel`; its capability declared first, checked against the revision's
   * schema both ways); any other method the specification defines throws InvalidArgumentError. */
  setRequestHandler (method: string, handler: RequestHandler | null): void
  /** Declares capabilities of your own, advertised as given over the engine's for each key. */
  declareCapabilities (capabilities: JsonObject): void
  /** Tells clients that a list you answer yourself changed. */
  notifyListChanged (kind: 'tools' | 'resources' | 'prompts'): void
  /** Entries of your own listed after the registered resources (`{resources: [...]}`, every
   * entry each time: the engine pages the list); null removes the lister. */
  resourceLister (lister: ((params: JsonObject, ctx: Context) => Awaitable<{ resources: JsonObject[] }>) | null): void
  /** Serves a skill from now on (replacing one of the same name); clients are told the resource
   * list changed. Throws InvalidArgumentError for a skill the engine refuses. */
  addSkill (skill: SkillDefinition): void
  /** Stops serving a skill; false if there was none. */
  removeSkill (name: string): boolean
  notifyResourceUpdated (uri: string): void
  serveStdio (): Promise<void>
  serveHttp (options?: HttpOptions): Promise<HttpServing>
  listen (options?: { transport?: 'stdio' } | ({ transport: 'http' } & HttpOptions)): Promise<void | HttpServing>
  /** The endpoint to mount in the application's own web server, made once (before the first
   * `handleRequest`/`fetch`, which otherwise make it with the defaults). */
  mount (options?: MountOptions): MountedEndpoint
  /** Answers a node:http request (Express, Fastify raw) on the mounted endpoint. */
  handleRequest (req: IncomingMessageLike, res: ServerResponseLike, parsedBody?: unknown): Promise<void>
  /** A connection to this server inside this process (an in-memory transport): `onMessage` gets
   * each message the server sends on it; `send` hands it one message from the client. */
  openSession (onMessage: (message: JsonObject) => void): { send (message: JsonObject): void, close (): void }
  /** Answers a web-standard Request on the mounted endpoint. */
  fetch (request: Request, options?: { authInfo?: unknown }): Promise<Response>
  close (): Promise<void>
}

/** Options of one client call. */
export interface CallOptions {
  signal?: AbortSignal
  /** Milliseconds without an answer (or progress) before the call fails with TimeoutError. */
  timeout?: number
  onprogress?: (progress: { progress: number, total?: number | null, message?: string | null }) => void
  /** The result as the server sent it, `resultType` and the server's `_meta` entry included. */
  raw?: boolean
}

/** The params of `elicitation/create`, as `onElicitation` receives them. */
export interface ElicitRequestParams {
  /** 'form': answer with `content` matching `requestedSchema`; 'url': send the user to `url`.
   * Absent (a form) from servers before 2025-11-25. */
  mode?: 'form' | 'url'
  message: string
  requestedSchema?: JsonObject
  url?: string
  elicitationId?: string
  _meta?: JsonObject
  [key: string]: any
}
/** What `onElicitation` answers. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel'
  content?: Record<string, string | number | boolean | string[]>
  [key: string]: any
}
/** One message of a sampling request: one content block, or (2025-11-25) a list of blocks. */
export interface SamplingMessage {
  role: 'user' | 'assistant'
  content: JsonObject | JsonObject[]
  [key: string]: any
}
/** The params of `sampling/createMessage`, as `onSampling` receives them (`tools` and `toolChoice`
 * when the server samples with tools). */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[]
  maxTokens: number
  systemPrompt?: string
  temperature?: number
  stopSequences?: string[]
  modelPreferences?: JsonObject
  includeContext?: 'none' | 'thisServer' | 'allServers'
  metadata?: JsonObject
  tools?: JsonObject[]
  toolChoice?: JsonObject
  _meta?: JsonObject
  [key: string]: any
}
/** What `onSampling` answers. */
export interface CreateMessageResult {
  role: 'assistant'
  content: JsonObject | JsonObject[]
  model: string
  stopReason?: string
  [key: string]: any
}
/** The params of `roots/list`, as `onRoots` receives them (only `_meta`, if any). */
export interface ListRootsRequestParams {
  _meta?: JsonObject
  [key: string]: any
}
/** What `onRoots` answers. */
export interface ListRootsResult {
  roots: { uri: string, name?: string, [key: string]: any }[]
  [key: string]: any
}

export interface ClientOptions {
  name?: string
  version?: string
  /** Pins the era and version (e.g. '2025-11-25' for the legacy handshake); 'auto' or absent: probe. Any other text rejects with an InvalidArgumentError. */
  protocolVersion?: string
  timeoutMs?: number
  probeTimeoutMs?: number
  logLevel?: LogLevel
  roots?: { uri: string, name?: string }[]
  onElicitation?: (params: ElicitRequestParams) => Awaitable<ElicitResult | JsonObject>
  onSampling?: (params: CreateMessageRequestParams) => Awaitable<CreateMessageResult | JsonObject>
  onRoots?: (params: ListRootsRequestParams) => Awaitable<ListRootsResult | JsonObject>
  /** Sees every notification from the server (list changes, log messages, progress, ...). */
  onNotification?: (method: string, params: JsonObject | null) => void
  /** Called at once with a TransportError (`line`: the line) when the server writes a line that
   * is not a JSON-RPC message (a banner on stdout); without it, a process warning. */
  onError?: (error: TransportError & { line: string }) => void
  elicitationUrl?: boolean
  samplingTools?: boolean
}
export interface StdioOptions extends ClientOptions {
  /** Variables added to this process's environment for the server. */
  env?: Record<string, string>
  cwd?: string
  /** 'inherit' (the default): each line the server writes to its stderr is an engine diagnostic
   * (`info`, target `libmcp::child_stderr`, see `setEngineLog`), not written to this process's
   * stderr; 'ignore': dropped. */
  stderr?: 'inherit' | 'ignore'
}
export interface HttpClientOptions extends ClientOptions {
  headers?: Record<string, string>
  /** Authorize with OAuth 2.1 when the server asks: the authorization code grant with PKCE, or a
   * grant that needs no user (`grant`). */
  oauth?: OAuthOptions
  /** Shows the authorization URL to the user; resolves to the URL they were redirected back to.
   * Without it the URL is fetched and its redirect followed. Authorization code grant only. */
  onAuthorize?: (authorizationUrl: string) => Awaitable<string | URL>
}
export type OAuthOptions = AuthorizationCodeOptions | GrantOptions
export interface AuthorizationCodeOptions {
  /** Where the authorization server sends the user back. */
  redirectUri: string
  clientName?: string
  /** An HTTPS URL hosting this client's metadata document (used as client_id where supported). */
  clientMetadataUrl?: string
  clientUri?: string
  /** Ask for refresh tokens when offered (default true). */
  offlineAccess?: boolean
  preRegistered?: { clientId: string, clientSecret?: string, issuer?: string, tokenEndpointAuthMethod?: string }
  /** Sender-constrained tokens with DPoP proofs (RFC 9449). */
  dpop?: boolean
  grant?: undefined
}
export interface GrantOptions {
  /** A grant that needs no user; a new token is obtained with it whenever the current one is
   * rejected or expires. */
  grant: ClientCredentialsGrant | JwtBearerGrant | EnterpriseManagedGrant
  /** Sender-constrained tokens with DPoP proofs (RFC 9449). */
  dpop?: boolean
}
/** The client credentials grant: a secret (client_secret_basic or _post), or a private_key_jwt
 * assertion signed with a PKCS #8 PEM key (`signingAlgorithm` default ES256). */
export type ClientCredentialsGrant = { type: 'clientCredentials', clientId: string } &
  ({ clientSecret: string } | { privateKeyPem: string, signingAlgorithm?: string })
/** A JWT given as the token itself, or as a file read at each use (rotated workload tokens). */
export type AssertionOf<K extends string> = { [P in K]: string } | { [P in `${K}File`]: string }
/** The JWT bearer grant with a workload identity token (workload identity federation). */
export type JwtBearerGrant = { type: 'jwtBearer', clientId?: string } & AssertionOf<'assertion'>
/** Enterprise-managed authorization: the user's ID token from the identity provider is exchanged
 * there for an ID-JAG, which the MCP server's authorization server exchanges for an access token. */
export type EnterpriseManagedGrant = {
  type: 'enterpriseManaged'
  idpTokenEndpoint: string
  idpClientId: string
  idpClientSecret?: string
  /** The client's registration at the MCP server's authorization server. */
  clientId: string
  clientSecret?: string
} & AssertionOf<'idToken'>

/** What a client learned about the server at connect, the same object on every libmcp host. */
export interface ServerDescription {
  era: 'modern' | 'legacy'
  protocolVersion: string
  supportedVersions: string[]
  capabilities: JsonObject
  serverInfo: JsonObject | null
  instructions: string | null
}

/** An MCP client connected to one server. */
export declare class Client {
  private constructor ()
  static connectStdio (command: string, args?: string[], options?: StdioOptions): Promise<Client>
  static connectHttp (url: string | URL, options?: HttpClientOptions): Promise<Client>
  static connect (options: (StdioOptions & { command: string, args?: string[] }) | (HttpClientOptions & { url: string | URL })): Promise<Client>
  /** What the client learned at connect (a copy); every key present, `null` where the server sent nothing. */
  readonly server: ServerDescription
  readonly era: 'modern' | 'legacy'
  readonly protocolVersion: string
  readonly serverCapabilities: JsonObject
  /** `null` when the server sent none. */
  readonly serverInfo: JsonObject | null
  /** `null` when the server sent none. */
  readonly instructions: string | null
  readonly serverPid?: number
  listTools (options?: CallOptions): Promise<{ tools: Tool[] }>
  listResources (options?: CallOptions): Promise<{ resources: Resource[] }>
  listResourceTemplates (options?: CallOptions): Promise<{ resourceTemplates: ResourceTemplate[] }>
  listPrompts (options?: CallOptions): Promise<{ prompts: Prompt[] }>
  /** The result without `resultType` and the server's `_meta` entry, unless `options.raw`. */
  callTool (name: string, args?: JsonObject, options?: CallOptions): Promise<CallToolResult>
  callTool (params: { name: string, arguments?: JsonObject }, options?: CallOptions): Promise<CallToolResult>
  readResource (uri: string | URL | { uri: string }, options?: CallOptions): Promise<ReadResourceResult>
  getPrompt (name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult>
  getPrompt (params: { name: string, arguments?: Record<string, string> }, options?: CallOptions): Promise<GetPromptResult>
  complete (params: { ref: JsonObject, argument: { name: string, value: string }, context?: { arguments: Record<string, string> } }, options?: CallOptions): Promise<CompleteResult>
  /** Offers to run the tool as a task: `{task}`, or `{result}` when the server answered at once. */
  callToolAsTask (name: string, args?: JsonObject, options?: CallOptions): Promise<{ task: Task, result?: undefined } | { result: JsonObject, task?: undefined }>
  callToolAsTask (params: { name: string, arguments?: JsonObject }, options?: CallOptions): Promise<{ task: Task, result?: undefined } | { result: JsonObject, task?: undefined }>
  /** Runs the tool as a task (when the server makes one) and resolves to its result. */
  callToolTask (name: string, args?: JsonObject, options?: CallOptions): Promise<JsonObject>
  callToolTask (params: { name: string, arguments?: JsonObject }, options?: CallOptions): Promise<JsonObject>
  getTask (taskId: string, options?: CallOptions): Promise<Task>
  cancelTask (taskId: string, options?: CallOptions): Promise<void>
  /** Follows the task to its end: its CallToolResult; a failed task rejects with its McpError. */
  waitTask (task: Task | string, options?: CallOptions): Promise<JsonObject>
  /** One page of `tasks/list` (2025-11-25). */
  listTasks (params?: { cursor?: string }, options?: CallOptions): Promise<{ tasks: Task[], nextCursor?: string }>
  /** Every skill (the skills extension): listing reads no file. */
  listSkills (options?: CallOptions): Promise<{ skills: SkillEntry[] }>
  getSkill (uri: string, options?: CallOptions): Promise<SkillEntry>
  /** A file of the skill (default its SKILL.md), verified against the entry before it is given
   * (a Buffer, typed as the Uint8Array it extends). */
  readSkillFile (entry: SkillEntry, uri?: string, options?: CallOptions): Promise<Uint8Array>
  /** `ping` on a legacy connection, `server/discover` on a modern one (which has no `ping`). */
  ping (options?: CallOptions): Promise<Record<string, never>>
  call (method: string, params?: JsonObject, options?: CallOptions): Promise<JsonObject>
  request (method: string, params?: JsonObject, options?: CallOptions): Promise<JsonObject>
  subscribe (filter: SubscriptionFilter): Promise<Subscription>
  close (): Promise<void>
}

/** MCP objects as a client receives them (schema.ts of the specification); each may carry more
 * members than listed. */
export interface Annotations { audience?: ('user' | 'assistant')[], priority?: number, lastModified?: string }
export interface Icon { src: string, mimeType?: string, sizes?: string[], theme?: 'light' | 'dark' }
export interface TextContent { type: 'text', text: string, annotations?: Annotations, _meta?: Record<string, unknown> }
export interface ImageContent { type: 'image', data: string, mimeType: string, annotations?: Annotations, _meta?: Record<string, unknown> }
export interface AudioContent { type: 'audio', data: string, mimeType: string, annotations?: Annotations, _meta?: Record<string, unknown> }
export interface TextResourceContents { uri: string, mimeType?: string, text: string, _meta?: Record<string, unknown> }
export interface BlobResourceContents { uri: string, mimeType?: string, blob: string, _meta?: Record<string, unknown> }
export type ResourceContents = TextResourceContents | BlobResourceContents
export interface EmbeddedResource { type: 'resource', resource: ResourceContents, annotations?: Annotations, _meta?: Record<string, unknown> }
export interface ResourceLink extends Resource { type: 'resource_link' }
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource
export interface ToolAnnotations { title?: string, readOnlyHint?: boolean, destructiveHint?: boolean, idempotentHint?: boolean, openWorldHint?: boolean }
/** A tool as `tools/list` gives it. */
export interface Tool {
  name: string
  title?: string
  description?: string
  inputSchema: { type: 'object', properties?: Record<string, unknown>, required?: string[], [key: string]: unknown }
  outputSchema?: { type: 'object', properties?: Record<string, unknown>, required?: string[], [key: string]: unknown }
  annotations?: ToolAnnotations
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' }
  icons?: Icon[]
  _meta?: Record<string, unknown>
}
/** What `callTool` resolves to; a tool error is `isError: true`. */
export interface CallToolResult {
  content: ContentBlock[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
  _meta?: Record<string, unknown>
}
export interface Resource {
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  size?: number
  annotations?: Annotations
  icons?: Icon[]
  _meta?: Record<string, unknown>
}
export interface ResourceTemplate {
  uriTemplate: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  annotations?: Annotations
  icons?: Icon[]
  _meta?: Record<string, unknown>
}
export interface ReadResourceResult { contents: ResourceContents[], _meta?: Record<string, unknown> }
export interface PromptArgument { name: string, title?: string, description?: string, required?: boolean }
export interface Prompt { name: string, title?: string, description?: string, arguments?: PromptArgument[], icons?: Icon[], _meta?: Record<string, unknown> }
export interface PromptMessage { role: 'user' | 'assistant', content: ContentBlock }
export interface GetPromptResult { description?: string, messages: PromptMessage[], _meta?: Record<string, unknown> }
export interface CompleteResult { completion: { values: string[], total?: number, hasMore?: boolean }, _meta?: Record<string, unknown> }

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'
/** A task as the server reports it. */
export interface Task {
  taskId: string
  status: TaskStatus
  statusMessage?: string
  createdAt: string
  lastUpdatedAt: string
  ttlMs?: number | null
  pollIntervalMs?: number
  inputRequests?: Record<string, InputRequest>
  result?: JsonObject
  error?: { code: number, message: string, data?: unknown }
}

/** A skill as `skills/list` and `skills/get` describe it. */
export interface SkillEntry {
  /** The URI of its SKILL.md. */
  uri: string
  frontmatter: JsonObject
  /** Every file with its size and digest, or `'dynamic'`. */
  resources: { uri: string, size: number, digest: string, [key: string]: any }[] | 'dynamic'
}

export interface SubscriptionFilter {
  toolsListChanged?: boolean
  promptsListChanged?: boolean
  resourcesListChanged?: boolean
  resourceSubscriptions?: string[]
  /** Tasks whose status changes to deliver (`notifications/tasks`, or `notifications/tasks/status`
   * from a 2025-11-25 session), each carrying the task as `params`. */
  taskIds?: string[]
}

/** Change notifications from the server, as an async iterator. */
export declare class Subscription implements AsyncIterable<{ method: string, params?: JsonObject | null }> {
  private constructor ()
  readonly acknowledged: SubscriptionFilter
  next (): Promise<{ method: string, params?: JsonObject | null } | undefined>
  close (): Promise<void>
  [Symbol.asyncIterator] (): AsyncIterator<{ method: string, params?: JsonObject | null }>
}
