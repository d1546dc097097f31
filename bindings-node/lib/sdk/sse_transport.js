'use strict'
// `SSEServerTransport` as the official TypeScript SDK (1.x) shapes it: the deprecated 2024-11-05
// HTTP+SSE transport, where the application routes the GET that opens a session's event stream
// (`new SSEServerTransport(endpoint, res)`, then `server.connect(transport)`) and the POSTs that
// carry the client's messages (`transport.handlePostMessage(req, res, req.body)`). Both requests
// are handed to the engine's own HTTP+SSE transport on the server's mounted endpoint (`httpSse`,
// core/src/transport/http/legacy_sse.rs), which keeps the session, handles each message and
// writes every answer on the stream; this file routes the two requests and renames the session.
//
// The SDK makes the session id in the constructor, before any stream exists, and the application
// routes POSTs by it; the engine makes its own id once the stream opens. So the stream's first
// event (`endpoint`, which names where to POST) is rewritten to name the transport's id and path
// as the SDK names them, and each POST is handed to the engine under the engine's id.

const { randomUUID } = require('node:crypto')
const hostValues = require('../host_values')
const { requestBody, writeAnswer, pipeStream, headerObject } = require('../mount')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** The engine's HTTP+SSE paths on a mounted endpoint, recognised by their ending (the defaults of
 * `HttpServerConfig::sse_path` and `messages_path`). */
const STREAM_PATH = '/sse'
const MESSAGES_PATH = '/messages'

/** The options of the SDK's transport (its DNS-rebinding protection, the mount's Host/Origin check). */
const OPTIONS = new Set(['allowedHosts', 'allowedOrigins', 'enableDnsRebindingProtection'])

/** What the SDK's transport puts in its `endpoint` event: `endpoint` (relative or absolute) with
 * `sessionId` set in its query, as path, query and fragment. */
function announced (endpoint, sessionId) {
  const url = new URL(endpoint, 'http://localhost')
  url.searchParams.set('sessionId', sessionId)
  return url.pathname + url.search + url.hash
}

/** The session id the engine's `endpoint` event (`event: endpoint\ndata: PATH?sessionId=ID`) names. */
function engineSession (event) {
  const data = /^data: ?(.*)$/m.exec(event)
  if (!/^event: ?endpoint$/m.test(event) || data === null) return null
  return new URL(data[1], 'http://localhost').searchParams.get('sessionId')
}

/** The error of a message the engine refused (its answer's status and body). */
function refusal (head) {
  return new Error(`the engine refused the message with HTTP ${head.status}: ${head.body ? head.body.toString('utf8') : ''}`)
}

function checkExchange (what, req, res) {
  if (req === null || typeof req !== 'object' || typeof req.on !== 'function' || !Array.isArray(req.rawHeaders)) {
    throw new TypeError(`${what}: req must be a node:http IncomingMessage, got ${describe(req)}`)
  }
  if (res === null || typeof res !== 'object' || typeof res.writeHead !== 'function') {
    throw new TypeError(`${what}: res must be a node:http ServerResponse, got ${describe(res)}`)
  }
}

/** One HTTP+SSE session on the application's web server (Express, node:http): made for the GET
 * that opens the stream, on that GET's response `res`; `endpoint` is where the client is told to
 * POST its messages (the application routes those POSTs to `handlePostMessage` by the `sessionId`
 * in their query). `options`: `allowedHosts`, `allowedOrigins` and `enableDnsRebindingProtection`,
 * the mount's Host/Origin check. */
class SSEServerTransport {
  #endpoint
  #res
  #options
  #sessionId = randomUUID()
  #mounted = null
  #exchange = null
  #engineId = null
  #ended = false
  constructor (endpoint, res, options) {
    if (typeof endpoint !== 'string') throw new TypeError(`SSEServerTransport: endpoint must be a string (the URL to POST messages to), got ${describe(endpoint)}`)
    if (res === null || typeof res !== 'object' || typeof res.writeHead !== 'function' || typeof res.on !== 'function') {
      throw new TypeError(`SSEServerTransport: res must be a node:http ServerResponse, got ${describe(res)}`)
    }
    if (options !== undefined && (options === null || typeof options !== 'object')) throw new TypeError(`SSEServerTransport: options must be an object, got ${describe(options)}`)
    for (const key of Object.keys(options ?? {})) {
      if (!OPTIONS.has(key)) throw new TypeError(`SSEServerTransport: unknown option ${key}`)
    }
    // Checked now, as the SDK would use it: the URL the client is told.
    announced(endpoint, this.#sessionId)
    this.#endpoint = endpoint
    this.#res = res
    this.#options = options ?? {}
    /** Called once the stream has ended (the client went away, or `close()`). */
    this.onclose = undefined
    /** Called with what went wrong with a POST (a refused message), as the SDK's is. */
    this.onerror = undefined
  }

  /** The session's id, as the client sees it in its message URL (`?sessionId=`); handlers get it as
   * `extra.sessionId`. */
  get sessionId () {
    return this.#sessionId
  }

  /** Called by `McpServer.connect`: mounts the server with the engine's HTTP+SSE transport on. */
  attach (server) {
    if (this.#mounted !== null) throw new Error('this transport is connected already')
    const o = this.#options
    const mount = { httpSse: true }
    if (o.allowedHosts !== undefined) mount.allowedHosts = o.allowedHosts
    if (o.allowedOrigins !== undefined) mount.allowedOrigins = o.allowedOrigins
    // The SDK checks Host and Origin only when asked to.
    mount.dnsRebindingProtection = o.enableDnsRebindingProtection === true
    this.#mounted = server.mount(mount)
  }

  /** Called by `McpServer.connect`: opens the engine's stream on `res` (the GET's response) and
   * resolves once the client has been told where to POST. Rejects when the engine refused the
   * stream (its answer, a Host the check refuses or too many sessions, is written on `res`). */
  async start () {
    if (this.#mounted === null) throw new Error('start before connect: call server.connect(transport), which starts it')
    if (this.#exchange !== null) {
      throw new Error('SSEServerTransport already started! If using Server class, note that connect() calls start() automatically.')
    }
    const res = this.#res
    const endpoint = await this.#mounted.nativeEndpoint()
    // The GET's own request, whose headers the engine checks (Host, Origin, a bearer token).
    const req = res.req
    const host = req?.auth === undefined ? undefined : hostValues.keep({ auth: req.auth })
    const exchange = endpoint.exchange('GET', STREAM_PATH, req ? req.rawHeaders : [], Buffer.alloc(0), host)
    this.#exchange = exchange
    res.on('close', () => {
      exchange.close()
      this.#end()
    })
    const head = await exchange.head()
    if (head === null) return this.#end()
    hostValues.release(head.released)
    if (head.body !== null && head.body !== undefined) {
      await writeAnswer(res, exchange, head)
      this.#end()
      throw new Error(`the engine refused the event stream with HTTP ${head.status}: ${head.body.toString('utf8')}`)
    }
    if (res.destroyed) return this.#end()
    res.writeHead(head.status, headerObject(head.headers))
    res.flushHeaders()
    // The engine's first event names its message path and session id: read it whole.
    let seen = ''
    let end
    while ((end = seen.indexOf('\n\n')) < 0) {
      const chunk = await exchange.next()
      if (chunk === null) {
        res.end()
        return this.#end()
      }
      seen += chunk.toString('utf8')
    }
    this.#engineId = engineSession(seen.slice(0, end))
    if (this.#engineId === null) {
      exchange.close()
      res.end()
      this.#end()
      throw new Error(`the engine's event stream did not begin with an endpoint event: ${JSON.stringify(seen.slice(0, end))}`)
    }
    res.write(`event: endpoint\ndata: ${announced(this.#endpoint, this.#sessionId)}\n\n${seen.slice(end + 2)}`)
    // The rest of the stream is written as it comes; the session ends with it.
    pipeStream(res, exchange).then(() => this.#end(), () => this.#end())
  }

  /** Answers one POST of the session's messages (`parsedBody`: what the application's body parser
   * gave, if any): the engine handles the message and writes what it produces on the stream; the
   * POST itself gets 202, or the engine's refusal (400 for a body that is not JSON-RPC, 413 for a
   * body past the limit). `req.auth` reaches handlers as `extra.authInfo`. Before the stream is
   * open, or after it ended, answers 500 and rejects, as the SDK's. */
  async handlePostMessage (req, res, parsedBody) {
    checkExchange('handlePostMessage', req, res)
    if (this.#engineId === null || this.#ended) {
      const message = 'SSE connection not established'
      res.writeHead(500).end(message)
      throw new Error(message)
    }
    const endpoint = await this.#mounted.nativeEndpoint()
    const body = await requestBody(req, res, parsedBody, endpoint.maxBodyBytes)
    if (body === null) return
    await this.#post(endpoint, req.rawHeaders, body, req.auth, res)
  }

  /** Hands the engine one message of the client that arrived some other way (`extra.authInfo`
   * reaches handlers as `extra.authInfo`); rejects with the engine's refusal (also given to
   * `onerror`). */
  async handleMessage (message, extra) {
    if (this.#engineId === null || this.#ended) throw new Error('SSE connection not established')
    if (extra !== undefined && (extra === null || typeof extra !== 'object')) throw new TypeError(`handleMessage: extra must be an object, got ${describe(extra)}`)
    const endpoint = await this.#mounted.nativeEndpoint()
    const head = await this.#post(endpoint, ['content-type', 'application/json'], Buffer.from(JSON.stringify(message), 'utf8'), extra?.authInfo)
    if (head !== null && head.status !== 202) throw refusal(head)
  }

  /** Posts `body` to the engine's message path under its session id; writes the answer on `res`
   * when given, and resolves to the answer's head (`null` when the exchange was closed first). */
  async #post (endpoint, headers, body, auth, res) {
    // The handler's `extra.sessionId` is the id the application knows the session by.
    const host = hostValues.keep(auth === undefined ? { sessionId: this.#sessionId } : { auth, sessionId: this.#sessionId })
    const exchange = endpoint.exchange('POST', `${MESSAGES_PATH}?sessionId=${this.#engineId}`, headers, body, host)
    if (res !== undefined) {
      res.on('close', () => {
        if (!res.writableFinished) exchange.close()
      })
    }
    const head = await exchange.head()
    if (head === null) return null
    hostValues.release(head.released)
    if (head.status !== 202 && this.onerror) this.onerror(refusal(head))
    if (res !== undefined) await writeAnswer(res, exchange, head)
    return head
  }

  #end () {
    if (this.#ended) return
    this.#ended = true
    // The mounted endpoint served this session only.
    if (this.#mounted !== null) this.#mounted.close()
    if (this.onclose) this.onclose()
  }

  /** Ends the stream (and the session with it); before `start`, leaves `res` alone, as the SDK's. */
  async close () {
    if (this.#exchange !== null) {
      this.#exchange.close()
      if (!this.#res.writableEnded) this.#res.end()
    }
    this.#end()
  }
}

module.exports = { SSEServerTransport }
