// The types of libmcp/sdk (lib/sdk/index.d.ts) against a server written for the official SDK's
// McpServer: compiled with --strict by scripts/test.d/41-node.sh, never run.
import {
  McpServer, ResourceTemplate, completable, StdioServerTransport, StreamableHTTPServerTransport, InMemoryTransport, McpError, ErrorCode,
  Client, StdioClientTransport, StreamableHTTPClientTransport, MethodSchema, WebStandardStreamableHTTPServerTransport,
} from '../../lib/sdk'
import { z } from 'zod'

export async function sdkUsage (): Promise<void> {
  const server = new McpServer({ name: 'typed', version: '1' }, { capabilities: { logging: {} } })
  const add = server.registerTool('add', {
    description: 'Adds',
    inputSchema: { a: z.number(), b: z.number().default(1) },
    outputSchema: { sum: z.number() },
  }, async ({ a, b }, extra) => {
    const sum: number = a + b
    if (extra._meta?.progressToken !== undefined) {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: 1 } })
    }
    if (extra.signal.aborted) throw new McpError(ErrorCode.InvalidParams, 'aborted', { sum })
    extra.closeSSEStream?.()
    return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } }
  })
  add.update({ description: 'Adds two numbers' })
  add.disable()
  add.enable()
  server.registerTool('bare', { description: 'no args' }, (extra) => ({ content: [{ type: 'text', text: String(extra.requestId) }] }))
  server.registerTool('ask', { inputSchema: { q: z.string() } }, async ({ q }) => {
    const r = await server.server.elicitInput({ message: q, requestedSchema: { type: 'object', properties: {} } })
    return { content: [{ type: 'text', text: r.action }] }
  })
  server.registerResource('user', new ResourceTemplate('users://{id}', { list: undefined, complete: { id: (v) => [v] } }), { mimeType: 'text/plain' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: String(id) }] }))
  const Search = z.object({ method: z.literal('acme/search'), params: z.object({ q: z.string() }) })
  server.server.setRequestHandler(Search, async (request, extra) => ({ hits: [request.params.q], id: extra.requestId }))
  server.server.removeRequestHandler('acme/search')
  server.registerResource('readme', 'docs://readme', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }))
  server.registerPrompt('review', { argsSchema: { lang: completable(z.string(), (v) => [v]) } },
    ({ lang }) => ({ messages: [{ role: 'user', content: { type: 'text', text: lang.toUpperCase() } }] }))
  const http = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'x', enableJsonResponse: true, onsessioninitialized: (id) => { void id } })
  await server.connect(http)
  const stdio = new StdioServerTransport()
  void stdio
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await new McpServer({ name: 'memory', version: '1' }).connect(serverSide)
  clientSide.onmessage = (m) => { void m.id }
  await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'ping' })
  const session = server.native.openSession((m) => { void m })
  session.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  session.close()
  await server.close()
}

export async function sdkClientUsage (elicit: MethodSchema<'elicitation/create'>, logged: MethodSchema<'notifications/message'>): Promise<void> {
  const client = new Client({ name: 'typed-client', version: '1' }, { capabilities: { elicitation: {} } })
  client.setRequestHandler(elicit, async (request) => {
    const message: string = request.params.message
    return { action: 'accept', content: { answer: message } }
  })
  client.setNotificationHandler(logged, (n) => { void n.params })
  client.onerror = (e: Error) => { void e.message }
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'), { requestInit: { headers: { authorization: 'Bearer x' } } }))
  const { tools, nextCursor } = await client.listTools()
  const name: string = tools[0].name
  void nextCursor
  const result = await client.callTool({ name, arguments: { a: 1 } }, undefined, { onprogress: (p) => { const n: number = p.progress; void n } })
  if (result.isError) void result.content
  const read = await client.readResource({ uri: 'docs://readme' })
  void read.contents
  const prompt = await client.getPrompt({ name: 'review', arguments: { language: 'rust' } })
  void prompt.messages
  void (await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'r' } })).completion.values
  void client.getServerVersion()?.name; void client.getServerCapabilities(); void client.getInstructions()
  await client.ping()
  const hits: { hits: string[] } = await client.request({ method: 'acme/search', params: { q: 'x' } }, z.object({ hits: z.array(z.string()) }))
  void hits
  const traced = await client.callTool({ name, arguments: {}, _meta: { trace: 't' } }, z.object({ content: z.array(z.object({ type: z.string() })) }).passthrough())
  void traced.content
  await client.setLoggingLevel('warning')
  await client.subscribeResource({ uri: 'docs://readme' })
  await client.unsubscribeResource({ uri: 'docs://readme' })
  await client.close()
  const spawned = new Client({ name: 'typed-client', version: '1' })
  await spawned.connect(new StdioClientTransport({ command: 'node', args: ['server.js'], stderr: 'ignore' }))
  await spawned.close()
}

export function eventStoreUsage (eventStore: { storeEvent (streamId: string, message: object): Promise<string>, replayEventsAfter (lastEventId: string, o: { send: (id: string, message: any) => Promise<void> }): Promise<string> }): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'id', eventStore, retryInterval: 1000 })
}

export async function webStandardUsage (request: Request): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'id', onsessionclosed: (id: string) => { void id } })
  await new McpServer({ name: 'web', version: '1' }).connect(transport)
  return transport.handleRequest(request, { authInfo: { token: 't', clientId: 'c', scopes: [] }, parsedBody: { jsonrpc: '2.0' } })
}

// The SDK's low-level Server, as simpleTaskInteractive writes one.
import { Server } from '../../lib/sdk'
export async function lowLevelUsage (): Promise<void> {
  const server = new Server({ name: 'low', version: '1' }, { capabilities: { tools: {} } })
  const listTools = { shape: { method: { value: 'tools/list' as const } }, parse: (v: unknown) => v as { method: 'tools/list', params?: any } }
  server.setRequestHandler(listTools, async (_request, extra) => {
    const answer = await server.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } })
    return { tools: [], seen: answer.action, id: String(extra.requestId) }
  })
  await server.sendToolListChanged()
  const mcp = new McpServer({ name: 'typed', version: '1' })
  const inner: Server = mcp.server
  await inner.createMessage({ messages: [], maxTokens: 1 })
  await server.close()
}
