// The types of libmcp/sdk's SSEServerTransport (lib/sdk/index.d.ts) against the SDK's HTTP+SSE
// examples' use of it: compiled with --strict by scripts/test.d/41-node.sh, never run.
import { McpServer, SSEServerTransport } from '../../lib/sdk'
import type { IncomingMessageLike, ServerResponseLike } from '../../lib'

const transports: Record<string, SSEServerTransport> = {}

/** GET /sse of an application's web server. */
export async function openStream (res: ServerResponseLike): Promise<string> {
  const transport = new SSEServerTransport('/messages', res, { enableDnsRebindingProtection: true, allowedHosts: ['localhost'] })
  const id: string = transport.sessionId
  transports[id] = transport
  transport.onclose = () => { delete transports[id] }
  transport.onerror = (e: Error) => { void e.message }
  const server = new McpServer({ name: 'sse', version: '1' })
  server.registerTool('pay', {}, async () => {
    const notify: () => Promise<void> = server.server.createElicitationCompletionNotifier('e-1')
    await notify().catch(() => {})
    return { content: [] }
  })
  await server.connect(transport)
  return id
}

/** POST /messages?sessionId=ID of the same. */
export async function postMessage (id: string, req: IncomingMessageLike, res: ServerResponseLike, body: unknown): Promise<void> {
  const transport = transports[id]
  if (transport instanceof SSEServerTransport) await transport.handlePostMessage(req, res, body)
  await transport.handleMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, { authInfo: { token: 't' } })
  await transport.close()
}
