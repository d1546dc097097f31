'use strict'
// `InMemoryTransport.createLinkedPair()` as the official TypeScript SDK has it, for tests: the
// second transport is given to `McpServer.connect`, the first to the SDK's `Client.connect`, and
// messages pass between them in this process (through a connection the engine serves as any other,
// `Server.openSession`).

/** One end of a linked pair. */
class InMemoryTransport {
  #link
  #side
  constructor (link, side) {
    this.#link = link
    this.#side = side
    this.onmessage = undefined
    this.onclose = undefined
    this.onerror = undefined
    this.sessionId = undefined
  }

  /** A client transport and a server transport linked to each other. */
  static createLinkedPair () {
    const link = { session: null, queued: [], client: null, closed: false }
    link.client = new InMemoryTransport(link, 'client')
    return [link.client, new InMemoryTransport(link, 'server')]
  }

  /** Called by `McpServer.connect` on the server transport. */
  attach (server) {
    if (this.#side !== 'server') throw new Error('connect the server to the second transport of the pair')
    if (this.#link.session !== null) throw new Error('this transport is connected already')
    const client = this.#link.client
    this.#link.session = server.openSession((message) => {
      if (client.onmessage) client.onmessage(message)
    })
    for (const message of this.#link.queued.splice(0)) this.#link.session.send(message)
  }

  async start () {}

  /** Sends a message from the client to the server (queued until the server is connected). */
  async send (message) {
    if (this.#side !== 'client') throw new Error('the server transport sends through the engine; send on the client transport')
    if (this.#link.closed) throw new Error('the transport is closed')
    if (this.#link.session === null) this.#link.queued.push(message)
    else this.#link.session.send(message)
  }

  /** Closes both ends. */
  async close () {
    const link = this.#link
    if (link.closed) return
    link.closed = true
    if (link.session !== null) link.session.close()
    if (link.client.onclose) link.client.onclose()
  }
}

module.exports = { InMemoryTransport }
