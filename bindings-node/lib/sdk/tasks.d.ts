// Types of the official TypeScript SDK's experimental tasks API in `libmcp/sdk` (lib/sdk/tasks.js,
// task_store.js, client_tasks.js).

import type { JsonObject, CallToolResult as ClientCallToolResult, TaskStatus, Task as EngineTask } from '../index'
import type { RequestHandlerExtra, ZodRawShape, AnyZod, InferArgs, ToolConfig, RegisteredTool, RequestOptions, ResultSchema, CallToolResult } from './index'

type Awaitable<T> = T | Promise<T>

export type { TaskStatus }

/** A task, in the SDK's shape: the engine's fields, its TTL and poll interval named as the SDK
 * names them. */
export type Task = Pick<EngineTask, 'taskId' | 'status' | 'statusMessage' | 'createdAt' | 'lastUpdatedAt'> & {
  /** Milliseconds the task is kept, null for no limit. */
  ttl: number | null
  pollInterval?: number
}

/** What a task is created with. */
export interface CreateTaskOptions {
  ttl?: number | null
  pollInterval?: number
}

/** The SDK's task store interface: the `taskStore` option of McpServer takes any object with
 * these methods (libmcp/sdk's InMemoryTaskStore, the SDK's, or the application's own). */
export interface TaskStore {
  createTask (taskParams: CreateTaskOptions, requestId: string | number, request: { method: string, params?: JsonObject }, sessionId?: string): Promise<Task>
  getTask (taskId: string, sessionId?: string): Promise<Task | null>
  storeTaskResult (taskId: string, status: 'completed' | 'failed', result: JsonObject, sessionId?: string): Promise<void>
  getTaskResult (taskId: string, sessionId?: string): Promise<JsonObject>
  updateTaskStatus (taskId: string, status: TaskStatus, statusMessage?: string, sessionId?: string): Promise<void>
  listTasks (cursor?: string, sessionId?: string): Promise<{ tasks: Task[], nextCursor?: string }>
}

/** Task records in this process's memory (each dropped `ttl` ms after it was created or ended). */
export declare class InMemoryTaskStore implements TaskStore {
  constructor ()
  createTask (taskParams: CreateTaskOptions, requestId?: string | number, request?: { method: string, params?: JsonObject }, sessionId?: string): Promise<Task>
  getTask (taskId: string, sessionId?: string): Promise<Task | null>
  storeTaskResult (taskId: string, status: 'completed' | 'failed', result: JsonObject, sessionId?: string): Promise<void>
  getTaskResult (taskId: string, sessionId?: string): Promise<JsonObject>
  updateTaskStatus (taskId: string, status: TaskStatus, statusMessage?: string, sessionId?: string): Promise<void>
  listTasks (cursor?: string, sessionId?: string): Promise<{ tasks: Task[], nextCursor?: string }>
  /** Drops every task and timer. */
  cleanup (): void
  /** Every task of every session. */
  getAllTasks (): Task[]
}

/** The SDK's task message queue interface (taken by McpServer, not used: see the README). */
export interface TaskMessageQueue {
  enqueue (taskId: string, message: JsonObject, sessionId?: string, maxSize?: number): Promise<void>
  dequeue (taskId: string, sessionId?: string): Promise<JsonObject | undefined>
  dequeueAll (taskId: string, sessionId?: string): Promise<JsonObject[]>
}

/** Messages queued per task, first in first out. */
export declare class InMemoryTaskMessageQueue implements TaskMessageQueue {
  constructor ()
  enqueue (taskId: string, message: JsonObject, sessionId?: string, maxSize?: number): Promise<void>
  dequeue (taskId: string, sessionId?: string): Promise<JsonObject | undefined>
  dequeueAll (taskId: string, sessionId?: string): Promise<JsonObject[]>
}

/** Whether a task in `status` has ended. */
export declare function isTerminal (status: TaskStatus): boolean

/** The task store bound to one request (`extra.taskStore` of `createTask`). */
export interface RequestTaskStore {
  createTask (taskParams?: CreateTaskOptions): Promise<Task>
  getTask (taskId: string): Promise<Task>
  storeTaskResult (taskId: string, status: 'completed' | 'failed', result: JsonObject): Promise<void>
  getTaskResult (taskId: string): Promise<JsonObject>
  updateTaskStatus (taskId: string, status: TaskStatus, statusMessage?: string): Promise<void>
  listTasks (cursor?: string): Promise<{ tasks: Task[], nextCursor?: string }>
}

/** The second argument of `createTask`. */
export interface CreateTaskRequestHandlerExtra extends RequestHandlerExtra {
  readonly taskStore: RequestTaskStore
  /** Always undefined: the engine keeps the TTL of the task the client sees (see the README). */
  readonly taskRequestedTtl?: number
  /** The engine's task this call runs as, when it runs as one. */
  readonly taskId?: string
}

/** A task tool's handler: `createTask` makes a record in the task store, starts the work (which
 * stores the result) and resolves to `{task}`; `getTask` and `getTaskResult` are not called. */
export interface ToolTaskHandler<Args> {
  createTask: Args extends undefined
    ? (extra: CreateTaskRequestHandlerExtra) => Awaitable<{ task: Task }>
    : (args: Args, extra: CreateTaskRequestHandlerExtra) => Awaitable<{ task: Task }>
  getTask?: (...args: any[]) => unknown
  getTaskResult?: (...args: any[]) => unknown
}

/** `mcpServer.experimental.tasks`. */
export interface ExperimentalMcpServerTasks {
  registerToolTask<In extends ZodRawShape | AnyZod, Out extends ZodRawShape | AnyZod | undefined = undefined> (
    name: string, config: ToolConfig<In, Out> & { inputSchema: In, execution?: { taskSupport?: 'required' | 'optional' } },
    handler: ToolTaskHandler<InferArgs<In>>): RegisteredTool
  registerToolTask<Out extends ZodRawShape | AnyZod | undefined = undefined> (
    name: string, config: ToolConfig<undefined, Out> & { execution?: { taskSupport?: 'required' | 'optional' } },
    handler: ToolTaskHandler<undefined>): RegisteredTool
}

/** One message of a stream: what happened to the task, then the result or an error. */
export type ResponseMessage<T> =
  | { type: 'taskCreated', task: Task }
  | { type: 'taskStatus', task: Task }
  | { type: 'result', result: T }
  | { type: 'error', error: Error & { code?: number } }

/** `mcpServer.server.experimental.tasks`: the requests to the client a handler streams. */
export interface ExperimentalServerTasks {
  elicitInputStream (params: { mode?: 'form' | 'url', message: string, requestedSchema?: JsonObject, url?: string, elicitationId?: string }): AsyncGenerator<ResponseMessage<{ action: 'accept' | 'decline' | 'cancel', content?: Record<string, any> }>, void, void>
  createMessageStream (params: JsonObject): AsyncGenerator<ResponseMessage<{ role: string, model: string, content: any, stopReason?: string, [key: string]: unknown }>, void, void>
}

/** `client.experimental.tasks` of libmcp/sdk's Client. */
export interface ClientTasks {
  /** `options.task` asks for a task (`{}`: a TTL is refused). */
  callToolStream<T = ClientCallToolResult> (params: { name: string, arguments?: JsonObject }, resultSchema?: ResultSchema<T>, options?: RequestOptions & { task?: {} }): AsyncGenerator<ResponseMessage<T>, void, void>
  /** With `options.task`, a `tools/call` runs as `callToolStream` runs it; otherwise one result. */
  requestStream<T> (request: { method: string, params?: JsonObject }, resultSchema: ResultSchema<T>, options?: RequestOptions & { task?: {} }): AsyncGenerator<ResponseMessage<T>, void, void>
  getTask (taskId: string, options?: RequestOptions): Promise<Task>
  getTaskResult<T = CallToolResult> (taskId: string, resultSchema?: ResultSchema<T>, options?: RequestOptions): Promise<T>
  listTasks (cursor?: string, options?: RequestOptions): Promise<{ tasks: Task[], nextCursor?: string }>
  cancelTask (taskId: string, options?: RequestOptions): Promise<Task>
}
