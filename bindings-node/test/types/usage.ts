// Compiled (not run) by scripts/test.d/41-node.sh with `tsc --strict`: every public function of
// lib/index.d.ts used as the README shows, so the shipped types stay complete and consistent.
import {
  Server, Client, McpError, TimeoutError, CancelledError, TransportError, InvalidArgumentError, InvalidTokenError, ErrorCode,
  inputRequired, elicit, elicitUrl, createMessage, listRoots, Context, Registered, HttpServing, Subscription, OAuthOptions, Task, TaskStatus, TaskStore, TaskRecord, SkillEntry, SkillDefinition, ServerOptions,
  MountedEndpoint, MountOptions, IncomingMessageLike, ServerResponseLike, SessionStore, SessionRecord, EventStore, StoredEvent,
  ElicitRequestParams, ElicitResult, CreateMessageRequestParams, CreateMessageResult, ListRootsRequestParams, ListRootsResult,
  Tool, ContentBlock, CallToolResult, ReadResourceResult, GetPromptResult, CompleteResult, Prompt,
  setEngineLog, EngineLogEntry, EngineLogLevel,
} from '../../lib/index'

async function server (): Promise<void> {
  const s = new Server({ name: 'typed', version: '1.0.0' }, { instructions: 'hi' })
  const reg: Registered = s.tool('echo', {
    title: 'Echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    annotations: { readOnlyHint: true },
  }, async (args: { text: string }, ctx: Context) => {
    ctx.progress(1, 2, 'half')
    ctx.log('info', { step: 1 })
    if (ctx.hasClientCapability('sampling') && ctx.closeStream()) return 'polled'
    if (ctx.signal.aborted) return 'aborted'
    const who = ctx.inputResponse('who') ?? ctx.elicitationAnswer('who', { type: 'object' })
    if (!who) return inputRequired({ who: elicit('Who?', { type: 'object' }), roots: listRoots() }, 'state')
    return { content: [{ type: 'text', text: `${args.text} ${ctx.era} ${ctx.protocolVersion} ${ctx.requestState}` }] }
  })
  reg.update({ description: 'new' })
  reg.disable(); reg.enable()
  const on: boolean = reg.enabled
  void on
  reg.remove()
  s.tool('bare', () => 'ok')
  const records = new Map<string, TaskRecord>()
  const store: TaskStore = {
    create: (r) => { records.set(r.id, r) },
    put: async (r) => { records.set(r.id, r) },
    get: (id) => records.get(id),
    list: () => [...records.values()],
  }
  const tasked = new Server({ name: 'tasks', version: '1' }, { tasks: { ttlMs: 1000, pollIntervalMs: 50, store } })
  tasked.tool('slow', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => ctx.taskId ?? 'plain')
  tasked.tool('later', { execution: { taskSupport: 'required' }, deferTask: true }, (_a, ctx) => ctx.startTask() ?? 'plain')
  new Server({ name: 'mem', version: '1' }, { tasks: { maxTasks: 10 } })
  const skill: SkillDefinition = {
    skillMd: '---\nname: s\ndescription: d\n---\n',
    files: [{ path: 'a.md', mimeType: 'text/markdown', content: 'a' }, { path: 'b.bin', mimeType: 'application/octet-stream', content: new Uint8Array([1]) }],
  }
  const shared: ServerOptions = { skills: [skill], redis: 'redis://127.0.0.1:6379/0' }
  void shared
  new Server({ name: 'skills', version: '1' }, { skills: [{ skillMd: skill.skillMd }] })
  s.resource('r', 'test://r', { mimeType: 'text/plain' }, (uri: URL) => ({ contents: [{ uri: uri.href, text: 'x' }] }))
  s.resourceTemplate('t', 'test://{id}', (uri: URL, vars) => ({ contents: [{ uri: uri.href, text: String(vars.id) }] }))
  s.prompt('p', { arguments: [{ name: 'a', required: true }] }, (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: args.a } }] }))
  s.completion(() => ({ completion: { values: [] } }))
  s.setRequestHandler('acme/search', (params, ctx) => ({ query: params.query ?? null, id: ctx.requestId }))
  s.setRequestHandler('acme/search', null)
  s.resourceLister((params) => ({ resources: [{ uri: 'test://listed', name: String(params.cursor ?? 'first') }] }))
  s.resourceLister(null)
  s.notifyResourceUpdated('test://r')
  const requests = [elicitUrl('Open', 'https://example.invalid'), createMessage({ messages: [], maxTokens: 1 })]
  void requests
  const http: HttpServing = await s.serveHttp({ port: 0, legacySessions: true, legacyStateless: false, jsonResponse: false })
  await http.close()
  const secured = await s.serveHttp({
    auth: {
      resource: 'https://mcp.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      requiredScopes: ['mcp:read'],
      toolScopes: { admin: ['mcp:admin'] },
      verifyToken: async (token) => {
        if (token === 'bad') throw new InvalidTokenError('unknown token')
        return token === 'none' ? null : { subject: 'ada', scopes: ['mcp:read'], audience: ['https://mcp.example.com/mcp'], expiresAt: 1 }
      },
    },
  })
  await secured.close()
  const sessionRecords = new Map<string, SessionRecord>()
  const sessionStore: SessionStore = {
    load: (id) => sessionRecords.get(id) ?? null,
    save: async (record) => { sessionRecords.set(record.id, record) },
    remove: (id) => sessionRecords.delete(id),
  }
  const events: StoredEvent[] = []
  const eventStore: EventStore = {
    append: (_session, event) => { events.push(event) },
    replay: async (_session, stream, after) => after > events.length ? 'unknown' : events.filter((e) => e.stream === stream && e.seq > after),
    removeSession: () => { events.length = 0 },
  }
  const stored = await s.serveHttp({ port: 0, sessionStore, eventStore })
  await stored.close()
  const options: MountOptions = { allowedHosts: ['mcp.example.com'], maxBodyBytes: 1 << 20 }
  const mcp: MountedEndpoint = s.mount(options)
  await mcp.ready
  s.tool('who', (_a, ctx) => `${ctx.requestInfo?.headers['x-tag']} ${ctx.authInfo?.clientId} ${ctx.sessionId}`)
  const route = (req: IncomingMessageLike, res: ServerResponseLike): Promise<void> => mcp.handleRequest(req, res, { jsonrpc: '2.0' })
  void route
  const answer: Response = await s.fetch(new Request('http://localhost/mcp'), { authInfo: { clientId: 'ada' } })
  void answer
  const viaServer = (req: IncomingMessageLike, res: ServerResponseLike) => s.handleRequest(req, res)
  void viaServer
  mcp.close()
  await s.close()
}

async function client (): Promise<void> {
  const c = await Client.connectStdio('node', ['server.js'], {
    protocolVersion: '2025-11-25',
    onElicitation: async (params: ElicitRequestParams): Promise<ElicitResult> =>
      params.mode === 'url' ? { action: 'cancel' } : { action: 'accept', content: { name: params.message } },
    roots: [{ uri: 'file:///tmp' }],
    stderr: 'ignore',
  })
  const h = await Client.connectHttp(new URL('http://127.0.0.1:3000/mcp'), {
    headers: { authorization: 'Bearer x' },
    onSampling: (params: CreateMessageRequestParams): CreateMessageResult => ({
      role: 'assistant', model: 'm', content: { type: 'text', text: `${params.messages.length} / ${params.maxTokens}` },
    }),
    onRoots: (_params: ListRootsRequestParams): ListRootsResult => ({ roots: [{ uri: 'file:///tmp' }] }),
  })
  const o = await Client.connectHttp('http://127.0.0.1:3000/mcp', {
    oauth: { redirectUri: 'http://127.0.0.1:8976/callback', clientName: 'typed', preRegistered: { clientId: 'id' } },
    onAuthorize: async (url) => new URL(url),
  })
  await o.close()
  const created = await c.callToolAsTask('slow', { seconds: 1 }, { timeout: 1000 })
  if (created.task) {
    const t: Task = await c.getTask(created.task.taskId)
    const status: TaskStatus = t.status
    void status
    await c.cancelTask(t.taskId)
    void (await c.waitTask(created.task)).content
  } else {
    void created.result.content
  }
  const { skills } = await c.listSkills()
  const skill: SkillEntry = await c.getSkill(skills[0].uri)
  const bytes: Uint8Array = await c.readSkillFile(skill, typeof skill.resources === 'string' ? skill.uri : skill.resources[0].uri)
  void bytes; void (await c.readSkillFile(skill))
  void (await c.callToolTask({ name: 'slow' })); void (await c.listTasks({ cursor: 'x' })).nextCursor
  const grants: OAuthOptions[] = [
    { grant: { type: 'clientCredentials', clientId: 'svc', clientSecret: 's' }, dpop: true },
    { grant: { type: 'clientCredentials', clientId: 'svc', privateKeyPem: '-----BEGIN PRIVATE KEY-----', signingAlgorithm: 'ES256' } },
    { grant: { type: 'jwtBearer', assertionFile: '/var/run/token' } },
    { grant: { type: 'enterpriseManaged', idpTokenEndpoint: 'https://idp/token', idpClientId: 'i', idToken: 't', clientId: 'c' } },
    { redirectUri: 'http://127.0.0.1:8976/callback', dpop: true },
  ]
  for (const oauth of grants) await (await Client.connectHttp('http://127.0.0.1:3000/mcp', { oauth })).close()
  const { tools } = await c.listTools()
  const r = await c.callTool('echo', { text: tools.length }, { signal: AbortSignal.timeout(1000), timeout: 500, onprogress: (p) => p.progress })
  await c.callTool({ name: 'echo', arguments: {} }, { raw: true })
  // Typed results: narrowed by their discriminants, no `any` on the way.
  const firstTool: Tool = tools[0]
  const required: string[] = firstTool.inputSchema.required ?? []
  const block: ContentBlock = r.content[0]
  const shown: string = block.type === 'text' ? block.text : block.type === 'resource_link' ? block.uri : block.type
  const failed: boolean = r.isError ?? false
  const read: ReadResourceResult = await c.readResource('test://r')
  const contents = read.contents[0]
  const body: string = 'text' in contents ? contents.text : contents.blob
  const prompt: GetPromptResult = await c.getPrompt('p', { a: 'b' })
  const role: 'user' | 'assistant' = prompt.messages[0].role
  const done: CompleteResult = await c.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } })
  const values: string[] = done.completion.values
  const listed: Prompt[] = (await c.listPrompts()).prompts
  const result: CallToolResult = r
  void [required, shown, failed, body, role, values, listed, result]
  await c.listResources(); await c.listResourceTemplates(); await c.listPrompts()
  await c.request('tools/list', {}); await c.call('tools/list')
  const era: 'modern' | 'legacy' = c.era
  void era; void r; void c.serverInfo; void c.protocolVersion
  try { await c.ping() } catch (e) {
    if (e instanceof McpError && e.code === ErrorCode.InvalidParams) void e.data
    if (e instanceof TimeoutError || e instanceof CancelledError || e instanceof TransportError || e instanceof InvalidArgumentError) void e.kind
  }
  await c.close(); await h.close()
}

void server; void client

async function subscriptions (c: Client): Promise<void> {
  const sub: Subscription = await c.subscribe({ toolsListChanged: true, resourceSubscriptions: ['test://r'], taskIds: ['t1'] })
  void sub.acknowledged.toolsListChanged
  for await (const n of sub) {
    if (n.method === 'notifications/tools/list_changed') break
  }
  await sub.close()
}
void subscriptions

function engineLog (): void {
  const level: EngineLogLevel = 'debug'
  setEngineLog((entry: EngineLogEntry) => {
    const where: string = entry.target
    const severity: EngineLogLevel = entry.level
    void where; void severity; void entry.message; void entry.fields.method
  }, { level })
  setEngineLog(null)
}
void engineLog
