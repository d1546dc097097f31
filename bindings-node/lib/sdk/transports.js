'use strict'
// The transports `McpServer.connect(transport)` takes, named and shaped as the official TypeScript
// SDK's: `StdioServerTransport` (this process's stdin/stdout) and `StreamableHTTPServerTransport`,
// whose `handleRequest(req, res, parsedBody)` answers on the server's mounted endpoint
// (lib/mount.js). The engine owns sessions, streams and the protocol: the transport only routes
// requests to it and reports sessions to the SDK's callbacks.

const { sdkEventStore } = require('./event_store')

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** Serves the connected server on this process's stdin and stdout. */
class StdioServerTransport {
  #server = null
  #served = null
  constructor (stdin, stdout) {
    if ((stdin !== undefined && stdin !== process.stdin) || (stdout !== undefined && stdout !== process.stdout)) {
      throw new TypeError('StdioServerTransport serves process.stdin and process.stdout only')
    }
    /** Called once serving ends (stdin closed, or `close()`). */
    this.onclose = undefined
    /** Called with the error that ended serving, if one did. */
    this.onerror = undefined
  }

  /** Called by `McpServer.connect`. */
  attach (server) {
    if (this.#server !== null) throw new Error('this transport is connected already')
    this.#server = server
  }

  /** Called by `McpServer.connect`: starts serving, resolves at once. */
  async start () {
    this.#served = this.#server.serveStdio().then(
      () => this.onclose && this.onclose(),
      (e) => {
        if (this.onerror) this.onerror(e)
        if (this.onclose) this.onclose()
      })
  }

  /** Stops serving once in-flight requests are answered. */
  async close () {
    if (this.#server === null) return
    await this.#server.close()
    await this.#served
  }
}

/** The options of the SDK's transport that this one takes (see the constructor). */
const OPTIONS = new Set(['sessionIdGenerator', 'enableJsonResponse', 'onsessioninitialized', 'onsessionclosed', 'allowedHosts', 'allowedOrigins', 'enableDnsRebindingProtection', 'retryInterval', 'eventStore'])

/** Streamable HTTP on the application's own web server (Express, node:http): call
 * `handleRequest(req, res, req.body)` for each request to the MCP path. `options`: with a
 * `sessionIdGenerator`, legacy clients get sessions whose ids the engine makes (the generator is
 * not called); without one, the SDK's stateless mode: legacy requests are served without a
 * session (the mount's `legacyStateless`), each on its own. `onsessioninitialized(id)` and
 * `onsessionclosed(id)` are called as a session begins and is deleted. `allowedHosts`,
 * `allowedOrigins` and `enableDnsRebindingProtection` are the mount's Host/Origin check.
 * `eventStore`, the SDK's EventStore, records the events of legacy sessions' streams and replays
 * them when a client resumes one that ended (lib/sdk/event_store.js says how its ids map onto the
 * engine's); `retryInterval` is checked and not used (the engine's own retry interval).
 * `enableJsonResponse: true` answers every request with one JSON body (the mount's
 * `jsonResponse`): as in the SDK, the handler's notifications are not sent then. */
class StreamableHTTPServerTransport {
  #options
  #eventStore
  #endpoint = null
  #closed = false
  constructor (options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${describe(options)}`)
    for (const key of Object.keys(options)) {
      if (!OPTIONS.has(key)) throw new TypeError(`StreamableHTTPServerTransport: unknown option ${key}`)
    }
    if (options.enableJsonResponse !== undefined && typeof options.enableJsonResponse !== 'boolean') {
      throw new TypeError(`enableJsonResponse must be a boolean, got ${describe(options.enableJsonResponse)}`)
    }
    if (options.retryInterval !== undefined && (!Number.isSafeInteger(options.retryInterval) || options.retryInterval < 0)) {
      throw new TypeError(`retryInterval must be a non-negative integer, got ${describe(options.retryInterval)}`)
    }
    // The store's methods are checked now, as it is wrapped.
    this.#eventStore = options.eventStore === undefined ? undefined : sdkEventStore(options.eventStore)
    for (const key of ['sessionIdGenerator', 'onsessioninitialized', 'onsessionclosed']) {
      if (options[key] !== undefined && typeof options[key] !== 'function') throw new TypeError(`${key} must be a function, got ${describe(options[key])}`)
    }
    this.#options = options
    /** The session this transport's server began, once it began one. */
    this.sessionId = undefined
    /** Called when the session is deleted or the transport closed. */
    this.onclose = undefined
    this.onerror = undefined
  }

  /** Called by `McpServer.connect`: mounts the server. */
  attach (server) {
    if (this.#endpoint !== null) throw new Error('this transport is connected already')
    const o = this.#options
    const mount = {}
    if (o.allowedHosts !== undefined) mount.allowedHosts = o.allowedHosts
    if (o.allowedOrigins !== undefined) mount.allowedOrigins = o.allowedOrigins
    if (o.enableDnsRebindingProtection !== undefined) mount.dnsRebindingProtection = o.enableDnsRebindingProtection
    if (o.enableJsonResponse) mount.jsonResponse = true
    if (this.#eventStore !== undefined) mount.eventStore = this.#eventStore
    // The SDK's stateless mode: no session id generator, no sessions.
    if (o.sessionIdGenerator === undefined) mount.legacyStateless = true
    this.#endpoint = server.mount(mount)
    this.#endpoint.onHead = (method, status, headers) => this.#seen(method, status, headers)
  }

  async start () {
    await this.#endpoint.ready
  }

  /** Reports the session a response began or ended. */
  #seen (method, status, headers) {
    if (method === 'POST' && this.sessionId === undefined && status === 200) {
      for (let i = 0; i < headers.length; i += 2) {
        if (headers[i].toLowerCase() === 'mcp-session-id') {
          this.sessionId = headers[i + 1]
          if (this.#options.onsessioninitialized) this.#options.onsessioninitialized(this.sessionId)
          break
        }
      }
    } else if (method === 'DELETE' && status === 200 && this.sessionId !== undefined) {
      if (this.#options.onsessionclosed) this.#options.onsessionclosed(this.sessionId)
      this.#end()
    }
  }

  #end () {
    if (this.#closed) return
    this.#closed = true
    if (this.onclose) this.onclose()
  }

  /** The mounted endpoint, once `connect` made it. */
  endpoint () {
    if (this.#endpoint === null) throw new Error('handleRequest before connect: call server.connect(transport) first')
    return this.#endpoint
  }

  /** Answers one request (`parsedBody`: what the application's body parser gave, if any). */
  handleRequest (req, res, parsedBody) {
    return this.endpoint().handleRequest(req, res, parsedBody)
  }

  /** Ends the server's sessions and streams. */
  async close () {
    if (this.#endpoint !== null) this.#endpoint.close()
    this.#end()
  }
}

/** The SDK's web-standard transport (Hono, Cloudflare Workers, Deno, Bun): `handleRequest(request,
 * {authInfo, parsedBody})` answers a `Request` with a `Response` on the server's mounted endpoint
 * (`fetch` of lib/mount.js). Options as `StreamableHTTPServerTransport`'s. */
class WebStandardStreamableHTTPServerTransport extends StreamableHTTPServerTransport {
  /** `options.authInfo` reaches handlers as `extra.authInfo`; `options.parsedBody` (what a body
   * parser gave) is sent on as JSON in place of the request's body. */
  handleRequest (request, options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`handleRequest options must be an object, got ${describe(options)}`)
    const endpoint = this.endpoint()
    const { authInfo, parsedBody } = options
    if (parsedBody !== undefined) request = new Request(request, { body: JSON.stringify(parsedBody) })
    return endpoint.fetch(request, authInfo === undefined ? {} : { authInfo })
  }
}

module.exports = { StdioServerTransport, StreamableHTTPServerTransport, WebStandardStreamableHTTPServerTransport }
