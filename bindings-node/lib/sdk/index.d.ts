// Types of `libmcp/sdk` (lib/sdk/*.js): the official TypeScript SDK's McpServer and low-level
// Server API on libmcp.
// Zod is not a dependency: schemas are typed by their shape (Zod 3's `_output`, Zod 4's
// `_zod.output`), so a handler's arguments are inferred from the Zod schemas given.

import type {
  JsonObject, Context, Server as PackageServer, IncomingMessageLike, ServerResponseLike, ResourceConfig,
  Tool, Resource, Prompt, CompleteResult, ElicitRequestParams, ElicitResult, CreateMessageRequestParams, CreateMessageResult,
  ListRootsRequestParams, ListRootsResult,
} from '../index'
import type { Client as NativeClient, ResourceTemplate as ResourceTemplateEntry, CallToolResult as ClientCallToolResult, ReadResourceResult as ClientReadResourceResult, GetPromptResult as ClientGetPromptResult } from '../index'

export { McpError, ErrorCode } from '../index'
export * from './tasks'
import type { TaskStore, TaskMessageQueue, ExperimentalMcpServerTasks, ExperimentalServerTasks, ClientTasks } from './tasks'

/** What a Zod schema (3 or 4) gives when it parses. */
export type InferZod<S> = S extends { _zod: { output: infer O } } ? O : S extends { _output: infer O } ? O : unknown
/** A Zod schema of either major version. */
export type AnyZod = { _zod: { output: unknown } } | { _output: unknown }
/** A raw shape of Zod schemas (`{a: z.string()}`). */
export type ZodRawShape = { [key: string]: AnyZod }
/** What a raw shape or Zod object schema gives. */
export type InferArgs<S> = S extends AnyZod ? InferZod<S> : { [K in keyof S]: InferZod<S[K]> }

/** The second argument of every callback, as the SDK's `RequestHandlerExtra`. */
export interface RequestHandlerExtra {
  /** Aborts when the client cancels the request. */
  readonly signal: AbortSignal
  /** The legacy HTTP session's id. */
  readonly sessionId?: string
  /** The request's `params._meta`. */
  readonly _meta?: { progressToken?: string | number, [key: string]: unknown }
  /** The JSON-RPC id of the request. */
  readonly requestId: string | number
  /** `req.auth` of the request given to `handleRequest`. */
  readonly authInfo?: { token?: string, clientId?: string, scopes?: string[], expiresAt?: number, [key: string]: unknown }
  /** Over HTTP, the request's headers (names lowercase). */
  readonly requestInfo?: { headers: Record<string, string> }
  /** This package's own context of the request. */
  readonly context: Context
  /** On a legacy HTTP session, ends the request's event stream now (the client resumes with
   * Last-Event-ID); undefined elsewhere. */
  readonly closeSSEStream?: () => void
  /** Sends `notifications/progress`, `notifications/message` or `notifications/resources/updated`
   * in this request's stream (the list_changed ones are sent by the engine). */
  sendNotification (notification: { method: string, params?: JsonObject }): Promise<void>
  /** Sends `elicitation/create`, `sampling/createMessage` or `roots/list` as an input round: see
   * README.md (the handler runs again from the start with the answer). */
  sendRequest<T = JsonObject> (request: { method: string, params?: JsonObject }, resultSchema?: { parse (v: unknown): T }): Promise<T>
}

type Awaitable<T> = T | Promise<T>
export type CallToolResult = JsonObject
export type ReadResourceResult = JsonObject
export type GetPromptResult = JsonObject

export interface ToolConfig<In, Out> {
  title?: string
  description?: string
  inputSchema?: In
  outputSchema?: Out
  annotations?: JsonObject
  icons?: JsonObject[]
  _meta?: JsonObject
}

/** A registration's handle, as the SDK's Registered* objects. */
export interface RegisteredHandle<Updates> {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly enabled: boolean
  update (updates: Updates & { name?: string | null, enabled?: boolean }): void
  enable (): void
  disable (): void
  remove (): void
}
export type RegisteredTool = RegisteredHandle<{ title?: string, description?: string, paramsSchema?: ZodRawShape, outputSchema?: ZodRawShape, annotations?: JsonObject, _meta?: JsonObject, callback?: (...args: any[]) => Awaitable<CallToolResult> }>
export type RegisteredResource = RegisteredHandle<{ title?: string, metadata?: ResourceMetadata, callback?: (...args: any[]) => Awaitable<ReadResourceResult> }>
export type RegisteredResourceTemplate = RegisteredResource & { readonly resourceTemplate: ResourceTemplate }
export type RegisteredPrompt = RegisteredHandle<{ title?: string, description?: string, argsSchema?: ZodRawShape, callback?: (...args: any[]) => Awaitable<GetPromptResult> }>

/** A resource's metadata: the package's ResourceConfig. */
export type ResourceMetadata = ResourceConfig

export type CompleteCallback = (value: string, context?: { arguments?: Record<string, string> }) => Awaitable<string[]>

/** A URI template with its `list` and per-variable `complete` callbacks. */
export declare class ResourceTemplate {
  constructor (uriTemplate: string, callbacks: { list: ((extra: RequestHandlerExtra) => Awaitable<{ resources: JsonObject[] }>) | undefined, complete?: Record<string, CompleteCallback> })
  readonly uriTemplate: { toString (): string }
  readonly template: string
  readonly listCallback?: (extra: RequestHandlerExtra) => Awaitable<{ resources: JsonObject[] }>
  readonly hasCompleters: boolean
  completeCallback (variable: string): CompleteCallback | undefined
}

/** Marks a Zod schema of a prompt argument as completed by `complete`. */
export declare function completable<S extends AnyZod> (schema: S, complete: CompleteCallback): S

/** The low-level server as handlers reach it (`mcpServer.server`). */
export interface ServerSide {
  elicitInput (params: { mode?: 'form' | 'url', message: string, requestedSchema?: JsonObject, url?: string, elicitationId?: string }): Promise<{ action: 'accept' | 'decline' | 'cancel', content?: Record<string, any> }>
  /** While a handler runs (it throws when the client lacks URL elicitation, and `NoSessionError`
   * for a 2026-07-28 request); the notifier it returns sends to the request's session, also
   * after the request was answered, and rejects once the session has ended. */
  createElicitationCompletionNotifier (elicitationId: string): () => Promise<void>
  createMessage (params: JsonObject): Promise<{ role: string, model: string, content: any, stopReason?: string, [key: string]: unknown }>
  listRoots (params?: JsonObject): Promise<{ roots: { uri: string, name?: string }[] }>
  getClientCapabilities (): JsonObject | undefined
  getClientVersion (): JsonObject | undefined
  sendLoggingMessage (params: { level: string, data: unknown, logger?: string }): Promise<void>
  notification (notification: { method: string, params?: JsonObject }): Promise<void>
  sendResourceUpdated (params: { uri: string }): Promise<void>
  sendToolListChanged (): Promise<void>
  sendResourceListChanged (): Promise<void>
  sendPromptListChanged (): Promise<void>
  registerCapabilities (capabilities: JsonObject): void
  /** For a method the specification does not define, or a feature method a host may answer
   * (`tools/call`, `tasks/get`, ...; its capability declared first); any other method the
   * specification defines throws InvalidArgumentError. */
  setRequestHandler<M extends string> (schema: MethodSchema<M> & { parse (value: unknown): { method: M, params?: any } },
    handler: (request: { method: M, params?: any }, extra: RequestHandlerExtra) => Awaitable<JsonObject>): void
  removeRequestHandler (method: string): void
  readonly experimental: { tasks: ExperimentalServerTasks }
}

/** The official TypeScript SDK's low-level Server, on libmcp (`mcpServer.server` is one); the
 * calls of `ServerSide` besides. */
export declare class Server {
  constructor (serverInfo: { name: string, version: string, [key: string]: unknown }, options?: { capabilities?: JsonObject, instructions?: string, [key: string]: unknown })
  /** This package's Server underneath. */
  readonly native: PackageServer
  /** The transport `connect` was given, if any. */
  readonly transport: Transport | undefined
  /** Throws: the engine handles the client's notifications itself. */
  setNotificationHandler (schema: MethodSchema<string>, handler: (notification: any) => Awaitable<void>): never
  connect (transport: Transport): Promise<void>
  close (): Promise<void>
}
export interface Server extends ServerSide {}

export interface Transport {
  attach (server: PackageServer): void
  start (): Promise<void>
  close (): Promise<void>
}

/** The official TypeScript SDK's McpServer, on libmcp. */
export declare class McpServer {
  constructor (serverInfo: { name: string, version: string, [key: string]: unknown }, options?: { capabilities?: JsonObject, instructions?: string, taskStore?: TaskStore, taskMessageQueue?: TaskMessageQueue, [key: string]: unknown })
  readonly server: Server
  /** The SDK's experimental features (`tasks.registerToolTask`). */
  readonly experimental: { tasks: ExperimentalMcpServerTasks }
  /** This package's Server underneath. */
  readonly native: PackageServer
  registerTool<In extends ZodRawShape | AnyZod, Out extends ZodRawShape | AnyZod | undefined = undefined> (
    name: string, config: ToolConfig<In, Out> & { inputSchema: In },
    cb: (args: InferArgs<In>, extra: RequestHandlerExtra) => Awaitable<CallToolResult>): RegisteredTool
  registerTool<Out extends ZodRawShape | AnyZod | undefined = undefined> (
    name: string, config: ToolConfig<undefined, Out>,
    cb: (extra: RequestHandlerExtra) => Awaitable<CallToolResult>): RegisteredTool
  tool (name: string, ...rest: any[]): RegisteredTool
  registerResource (name: string, uri: string, config: ResourceMetadata,
    cb: (uri: URL, extra: RequestHandlerExtra) => Awaitable<ReadResourceResult>): RegisteredResource
  registerResource (name: string, template: ResourceTemplate, config: ResourceMetadata,
    cb: (uri: URL, variables: Record<string, string | string[]>, extra: RequestHandlerExtra) => Awaitable<ReadResourceResult>): RegisteredResourceTemplate
  resource (name: string, uriOrTemplate: string | ResourceTemplate, ...rest: any[]): RegisteredResource
  registerPrompt<A extends ZodRawShape> (name: string, config: { title?: string, description?: string, argsSchema: A },
    cb: (args: InferArgs<A>, extra: RequestHandlerExtra) => Awaitable<GetPromptResult>): RegisteredPrompt
  registerPrompt (name: string, config: { title?: string, description?: string },
    cb: (extra: RequestHandlerExtra) => Awaitable<GetPromptResult>): RegisteredPrompt
  prompt (name: string, ...rest: any[]): RegisteredPrompt
  sendLoggingMessage (params: { level: string, data: unknown, logger?: string }, sessionId?: string): Promise<void>
  sendToolListChanged (): void
  sendResourceListChanged (): void
  sendPromptListChanged (): void
  connect (transport: Transport): Promise<void>
  isConnected (): boolean
  close (): Promise<void>
}

/** Serves the connected server on this process's stdin and stdout. */
export declare class StdioServerTransport implements Transport {
  constructor ()
  onclose?: () => void
  onerror?: (error: Error) => void
  attach (server: PackageServer): void
  start (): Promise<void>
  close (): Promise<void>
}

/** Streamable HTTP on the application's web server: `handleRequest(req, res, req.body)`. */
/** The official SDK's EventStore interface (`@modelcontextprotocol/sdk/server/streamableHttp.js`). */
export interface SdkEventStore {
  storeEvent (streamId: string, message: JsonObject): Promise<string>
  getStreamIdForEventId? (eventId: string): Promise<string | undefined>
  replayEventsAfter (lastEventId: string, options: { send: (eventId: string, message: JsonObject) => Promise<void> }): Promise<string>
}
export declare class StreamableHTTPServerTransport implements Transport {
  constructor (options?: {
    sessionIdGenerator?: () => string
    onsessioninitialized?: (sessionId: string) => void | Promise<void>
    onsessionclosed?: (sessionId: string) => void | Promise<void>
    allowedHosts?: string[]
    allowedOrigins?: string[]
    enableDnsRebindingProtection?: boolean
    /** Every request answered with one JSON body (the handler's notifications are not sent). */
    enableJsonResponse?: boolean
    /** The SDK's EventStore: records the events of legacy sessions' streams and replays those of
     * streams that ended (within this process: see the README). */
    eventStore?: SdkEventStore
    /** Checked, not used (the engine's own retry interval). */
    retryInterval?: number
  })
  sessionId?: string
  onclose?: () => void
  onerror?: (error: Error) => void
  attach (server: PackageServer): void
  start (): Promise<void>
  handleRequest (req: IncomingMessageLike, res: ServerResponseLike, parsedBody?: unknown): Promise<void>
  close (): Promise<void>
}

/** The SDK's web-standard transport (Hono, Workers, Deno, Bun): `handleRequest(request)` answers a
 * `Request` with a `Response` on the server's mounted endpoint. */
export declare class WebStandardStreamableHTTPServerTransport implements Transport {
  constructor (options?: ConstructorParameters<typeof StreamableHTTPServerTransport>[0])
  sessionId?: string
  onclose?: () => void
  onerror?: (error: Error) => void
  attach (server: PackageServer): void
  start (): Promise<void>
  close (): Promise<void>
  handleRequest (request: Request, options?: { authInfo?: { token?: string, clientId?: string, scopes?: string[], [key: string]: unknown }, parsedBody?: unknown }): Promise<Response>
}

/** The deprecated 2024-11-05 HTTP+SSE transport, on the engine's own (`httpSse`): made for the GET
 * that opens a session's stream, on that GET's response; the application routes the session's
 * POSTs (`?sessionId=` of `endpoint`) to `handlePostMessage`. */
export declare class SSEServerTransport implements Transport {
  constructor (endpoint: string, res: ServerResponseLike & { readonly req?: IncomingMessageLike },
    options?: { allowedHosts?: string[], allowedOrigins?: string[], enableDnsRebindingProtection?: boolean })
  /** Made with the transport: what the client POSTs with, and handlers' `extra.sessionId`. */
  readonly sessionId: string
  onclose?: () => void
  onerror?: (error: Error) => void
  attach (server: PackageServer): void
  start (): Promise<void>
  handlePostMessage (req: IncomingMessageLike, res: ServerResponseLike, parsedBody?: unknown): Promise<void>
  handleMessage (message: JsonObject, extra?: { authInfo?: { token?: string, clientId?: string, scopes?: string[], [key: string]: unknown } }): Promise<void>
  close (): Promise<void>
}

/** A linked pair for tests: `server.connect(pair[1])`, then the SDK's `client.connect(pair[0])`. */
export declare class InMemoryTransport implements Transport {
  static createLinkedPair (): [InMemoryTransport, InMemoryTransport]
  onmessage?: (message: JsonObject) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  sessionId?: string
  attach (server: PackageServer): void
  start (): Promise<void>
  send (message: JsonObject): Promise<void>
  close (): Promise<void>
}

/** A request or notification schema of the SDK (`ElicitRequestSchema`, ...): an object schema
 * whose `method` is a literal, read for that literal only. */
export interface MethodSchema<M extends string = string> { shape: { method: { value: M } } }

/** Options of one client request, as the SDK's `RequestOptions`. */
export interface RequestOptions {
  signal?: AbortSignal
  timeout?: number
  onprogress?: (progress: { progress: number, total?: number, message?: string }) => void
}

/** The requests a libmcp/sdk client answers, with their params and results. */
export interface AnsweredRequests {
  'elicitation/create': [ElicitRequestParams, ElicitResult]
  'sampling/createMessage': [CreateMessageRequestParams, CreateMessageResult]
  'roots/list': [ListRootsRequestParams, ListRootsResult]
}

/** Spawns a server and connects over its stdin/stdout. */
export declare class StdioClientTransport {
  constructor (params: { command: string, args?: string[], env?: Record<string, string>, cwd?: string, stderr?: 'inherit' | 'ignore' })
  onclose?: () => void
  onerror?: (error: Error) => void
}

/** Streamable HTTP to `url`; `requestInit.headers` go with every request. */
export declare class StreamableHTTPClientTransport {
  constructor (url: URL | string, options?: { requestInit?: { headers?: Record<string, string> | [string, string][] | Headers }, reconnectionOptions?: JsonObject })
  /** Always undefined: the legacy session is the engine's. */
  readonly sessionId?: string
  onclose?: () => void
  onerror?: (error: Error) => void
}

/** The official TypeScript SDK's Client, on libmcp's engine client (which probes the era). */
/** What `request` and `callTool` take to parse a result: a Zod schema (3 or 4). */
export interface ResultSchema<T> {
  safeParse (value: unknown): { success: true, data: T } | { success: false, error: unknown }
}
export declare class Client {
  constructor (clientInfo: { name: string, version: string, [key: string]: unknown }, options?: { capabilities?: { elicitation?: JsonObject, sampling?: JsonObject, roots?: JsonObject, [key: string]: unknown } })
  onclose?: () => void
  onerror?: (error: Error) => void
  fallbackNotificationHandler?: (notification: { method: string, params?: JsonObject }) => void | Promise<void>
  readonly transport?: StdioClientTransport | StreamableHTTPClientTransport
  /** This package's `Client` underneath, once connected. */
  readonly native?: NativeClient
  /** The SDK's experimental task calls. */
  readonly experimental: { tasks: ClientTasks }
  /** Before `connect` only. */
  setRequestHandler<M extends keyof AnsweredRequests> (schema: MethodSchema<M>,
    handler: (request: { method: M, params: AnsweredRequests[M][0] }) => AnsweredRequests[M][1] | Promise<AnsweredRequests[M][1]>): void
  setNotificationHandler<M extends string> (schema: MethodSchema<M>,
    handler: (notification: { method: M, params?: JsonObject }) => void | Promise<void>): void
  connect (transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<void>
  getServerCapabilities (): JsonObject | undefined
  getServerVersion (): { name: string, version: string, [key: string]: unknown } | undefined
  getInstructions (): string | undefined
  listTools (params?: { cursor?: string }, options?: RequestOptions): Promise<{ tools: Tool[], nextCursor?: string }>
  listResources (params?: { cursor?: string }, options?: RequestOptions): Promise<{ resources: Resource[], nextCursor?: string }>
  listResourceTemplates (params?: { cursor?: string }, options?: RequestOptions): Promise<{ resourceTemplates: ResourceTemplateEntry[], nextCursor?: string }>
  listPrompts (params?: { cursor?: string }, options?: RequestOptions): Promise<{ prompts: Prompt[], nextCursor?: string }>
  /** `structuredContent` is checked against the tool's `outputSchema` from the last `listTools`;
   * with `resultSchema` (a Zod schema) the result is what it parses. */
  callTool<T = ClientCallToolResult> (params: { name: string, arguments?: JsonObject, _meta?: JsonObject }, resultSchema?: ResultSchema<T>, options?: RequestOptions): Promise<T>
  /** Any request, its result parsed by `resultSchema` (a Zod schema, as the SDK's). */
  request<T> (request: { method: string, params?: JsonObject }, resultSchema: ResultSchema<T>, options?: RequestOptions): Promise<T>
  /** `logging/setLevel` of a 2025-11-25 server; rejects on a 2026-07-28 server (see the README). */
  setLoggingLevel (level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency', options?: RequestOptions): Promise<{}>
  subscribeResource (params: { uri: string }, options?: RequestOptions): Promise<{}>
  unsubscribeResource (params: { uri: string }, options?: RequestOptions): Promise<{}>
  /** Always rejects: the engine client sends the protocol's own notifications only. */
  notification (notification: { method: string, params?: JsonObject }): Promise<never>
  readResource (params: { uri: string }, options?: RequestOptions): Promise<ClientReadResourceResult>
  getPrompt (params: { name: string, arguments?: Record<string, string> }, options?: RequestOptions): Promise<ClientGetPromptResult>
  complete (params: { ref: JsonObject, argument: { name: string, value: string }, context?: { arguments: Record<string, string> } }, options?: RequestOptions): Promise<CompleteResult>
  ping (options?: RequestOptions): Promise<{}>
  close (): Promise<void>
}
