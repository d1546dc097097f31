'use strict'
// The MCP endpoint mounted in the application's own web server: `handleRequest(req, res,
// parsedBody?)` for node:http, Express and Fastify (raw req/res), `fetch(request)` for hosts that
// answer a web-standard Request with a Response (Hono and friends). Each request is handed to the
// engine's endpoint (bindings-node/src/mount.rs) as plain data and its response written back as
// the engine produces it; every HTTP and protocol rule is the engine's.

const hostValues = require('./host_values')
const { translated } = require('./errors')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** Statuses whose response has no body (a web Response refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304])

/** The request body the host parsed already (express.json(), express.text(), ...) as bytes:
 * a string or bytes as they are, anything else as JSON. */
function serialised (parsed) {
  if (typeof parsed === 'string') return Buffer.from(parsed, 'utf8')
  if (parsed instanceof Uint8Array) return Buffer.from(parsed.buffer, parsed.byteOffset, parsed.byteLength)
  return Buffer.from(JSON.stringify(parsed), 'utf8')
}

/** Reads a node:http request's body, stopping one chunk past `limit` bytes (the engine then answers
 * 413 without the rest being read). A body the host's middleware consumed already is `req.body`. */
function readBody (req, limit) {
  if (req.readableEnded) return Promise.resolve(req.body === undefined ? Buffer.alloc(0) : serialised(req.body))
  return new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    const done = (error) => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      if (error) reject(error)
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))
    }
    const onData = (chunk) => {
      chunks.push(chunk)
      size += chunk.length
      // Past the limit: the rest is left to Node, which discards it once the response is sent.
      if (size > limit) done()
    }
    const onEnd = () => done()
    const onError = (e) => done(e)
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
}

/** Reads a web Request's body, stopping one chunk past `limit` bytes. */
async function readWebBody (request, limit) {
  if (request.body === null) return Buffer.alloc(0)
  const reader = request.body.getReader()
  const chunks = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
    if (size > limit) {
      reader.cancel().catch(() => {})
      break
    }
  }
  return Buffer.concat(chunks, size)
}

/** The response headers `[name, value, ...]` as an object for `writeHead` (a repeated name's
 * values as an array). */
function headerObject (flat) {
  const out = {}
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    const had = out[name]
    if (had === undefined) out[name] = flat[i + 1]
    else if (Array.isArray(had)) had.push(flat[i + 1])
    else out[name] = [had, flat[i + 1]]
  }
  return out
}

/** Resolves once `res` can take more (`'drain'`) or is gone (`'close'`). */
function writable (res) {
  return new Promise((resolve) => {
    const go = () => {
      res.off('drain', go)
      res.off('close', go)
      resolve()
    }
    res.on('drain', go)
    res.on('close', go)
  })
}

/** The body of node:http request `req`: `parsedBody` (what the application's middleware parsed,
 * sent on as JSON; a function there, Express's `next`, is not a body) or the bytes read from `req`
 * (at most one chunk past `limit`). `null` when the request failed while it was read (the client
 * went away): `res` is destroyed then, as there is nobody to answer. */
async function requestBody (req, res, parsedBody, limit) {
  if (parsedBody !== undefined && typeof parsedBody !== 'function') return serialised(parsedBody)
  try {
    return await readBody(req, limit)
  } catch {
    res.destroy()
    return null
  }
}

/** Writes an exchange's answer on node:http response `res` once its head came: the head, then the
 * whole body, or each chunk of an event stream as the engine produces it. Resolves when the
 * response has ended (or `res` is gone). */
async function writeAnswer (res, exchange, head) {
  if (res.destroyed) return
  res.writeHead(head.status, headerObject(head.headers))
  if (head.body !== null && head.body !== undefined) {
    res.end(head.body)
    return
  }
  res.flushHeaders()
  await pipeStream(res, exchange)
}

/** Writes each further chunk of `exchange`'s event stream on `res`, then ends `res`. */
async function pipeStream (res, exchange) {
  for (;;) {
    const chunk = await exchange.next()
    if (chunk === null) break
    if (!res.write(chunk)) await writable(res)
    if (res.destroyed) break
  }
  res.end()
}

/** A JSON-RPC error body for a failure of the mount itself (the endpoint could not be made). */
function failure (e) {
  const message = e instanceof Error ? e.message : String(e)
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `the MCP endpoint is not available: ${message}` } })
}

/** The endpoint of one server mounted in the application's web server (`server.mount(options)`);
 * `handleRequest` and `fetch` are bound, so they can be passed as they are. */
class MountedEndpoint {
  #native = null
  #failed = null
  #closed = false
  /** Called with `(method, status, headers)` of each response `handleRequest` writes or `fetch`
   * gives (headers as `[name, value, ...]`), before it is written or given: how the SDK-shaped transport (lib/sdk/
   * transports.js) learns the sessions it reports. */
  onHead = undefined

  /** `create()` resolves to the addon's endpoint (`NativeServer.endpoint`). */
  constructor (create) {
    /** Resolves once the endpoint is ready; rejects with what stopped it (Redis not answering). */
    this.ready = translated(create).then((native) => {
      this.#native = native
      if (this.#closed) native.close()
    }, (e) => {
      this.#failed = e
      throw e
    })
    // Requests answer the failure themselves; an application that never awaits `ready` must not
    // get an unhandled rejection from it.
    this.ready.catch(() => {})
    this.handleRequest = this.handleRequest.bind(this)
    this.fetch = this.fetch.bind(this)
  }

  async #endpoint () {
    if (this.#native === null && this.#failed === null) await this.ready.catch(() => {})
    if (this.#failed !== null) throw this.#failed
    return this.#native
  }

  /** Answers a node:http request (Express, Fastify's `request.raw`/`reply.raw`, ...), as the
   * official SDK's `StreamableHTTPServerTransport.handleRequest` is called. `parsedBody` is the
   * body the application's middleware parsed (`req.body` after `express.json()`), sent on as JSON;
   * without it the body is read from `req` (or taken from `req.body` when a middleware consumed
   * it). A function there (Express's `next`) is ignored. `req.auth` reaches handlers as
   * `ctx.authInfo`. Resolves when the response has ended. */
  async handleRequest (req, res, parsedBody) {
    if (req === null || typeof req !== 'object' || typeof req.on !== 'function' || typeof req.method !== 'string') {
      throw new TypeError(`handleRequest: req must be a node:http IncomingMessage, got ${describe(req)}`)
    }
    if (res === null || typeof res !== 'object' || typeof res.writeHead !== 'function') {
      throw new TypeError(`handleRequest: res must be a node:http ServerResponse, got ${describe(res)}`)
    }
    let endpoint
    try {
      endpoint = await this.#endpoint()
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(failure(e))
      return
    }
    const body = await requestBody(req, res, parsedBody, endpoint.maxBodyBytes)
    if (body === null) return
    const host = req.auth === undefined ? undefined : hostValues.keep({ auth: req.auth })
    const target = typeof req.originalUrl === 'string' ? req.originalUrl : req.url
    const exchange = endpoint.exchange(req.method, target, req.rawHeaders, body, host)
    // The client went away before the response ended: the exchange ends, which cancels a request
    // still running.
    const onClose = () => {
      if (!res.writableFinished) exchange.close()
    }
    res.on('close', onClose)
    const head = await exchange.head()
    if (head === null) return
    hostValues.release(head.released)
    if (this.onHead) this.onHead(req.method, head.status, head.headers)
    await writeAnswer(res, exchange, head)
  }

  /** Answers a web-standard `Request` with a `Response` (Hono: `app.all('/mcp', (c) =>
   * mcp.fetch(c.req.raw))`), an event stream's body a ReadableStream fed as events are produced.
   * `options.authInfo` reaches handlers as `ctx.authInfo`. Aborting the request's signal or
   * cancelling the body ends the exchange. */
  async fetch (request, options = {}) {
    if (request === null || typeof request !== 'object' || typeof request.url !== 'string' || typeof request.headers?.entries !== 'function') {
      throw new TypeError(`fetch: request must be a web-standard Request, got ${describe(request)}`)
    }
    if (options === null || typeof options !== 'object') throw new TypeError(`fetch: options must be an object, got ${describe(options)}`)
    let endpoint
    try {
      endpoint = await this.#endpoint()
    } catch (e) {
      return new Response(failure(e), { status: 500, headers: { 'content-type': 'application/json' } })
    }
    const body = await readWebBody(request, endpoint.maxBodyBytes)
    const url = new URL(request.url)
    const headers = []
    for (const [name, value] of request.headers.entries()) headers.push(name, value)
    const host = options.authInfo === undefined ? undefined : hostValues.keep({ auth: options.authInfo })
    const exchange = endpoint.exchange(request.method, url.pathname + url.search, headers, body, host)
    const signal = request.signal
    if (signal) {
      if (signal.aborted) exchange.close()
      else signal.addEventListener('abort', () => exchange.close(), { once: true })
    }
    const head = await exchange.head()
    // Closed before the head came: the client went away, and nobody reads this answer (499 is
    // what proxies log for a client that closed the request).
    if (head === null) return new Response(null, { status: 499 })
    hostValues.release(head.released)
    if (this.onHead) this.onHead(request.method, head.status, head.headers)
    const out = new Headers()
    for (let i = 0; i < head.headers.length; i += 2) out.append(head.headers[i], head.headers[i + 1])
    const init = { status: head.status, headers: out }
    if (head.body !== null && head.body !== undefined) {
      return new Response(NULL_BODY.has(head.status) || head.body.length === 0 ? null : head.body, init)
    }
    const stream = new ReadableStream({
      async pull (controller) {
        const chunk = await exchange.next()
        if (chunk === null) controller.close()
        else controller.enqueue(chunk)
      },
      cancel () {
        exchange.close()
      },
    }, { highWaterMark: 0 })
    return new Response(stream, init)
  }

  /** The addon's endpoint once ready (rejects with what stopped it), for the transports of
   * libmcp/sdk that make their own requests of it (lib/sdk/sse_transport.js). */
  nativeEndpoint () {
    return this.#endpoint()
  }

  /** Ends every session, open stream and subscription of this endpoint. */
  close () {
    this.#closed = true
    if (this.#native !== null) this.#native.close()
  }
}

module.exports = { MountedEndpoint, requestBody, writeAnswer, pipeStream, headerObject }
