'use strict'
// The official TypeScript SDK's `EventStore` (`storeEvent(streamId, message)`,
// `replayEventsAfter(lastEventId, {send})`, `getStreamIdForEventId?`) given to
// `StreamableHTTPServerTransport({eventStore})`, as this package's own `eventStore` (`{append,
// replay, removeSession}`, lib/http_stores.js), which the engine calls with its own numbering of
// events: a session, a stream within it and a `seq` from 1 (0 names the stream's start).
//
// The SDK's store names each event by an id it makes itself, and that id is what the SDK puts on
// the wire; the engine puts its own ids on the wire (`<tag>.<stream>-<seq>`, every instance of a
// shared deployment recognises them). So this adapter keeps, in this process, which store id each
// (session, stream, seq) got: the store is asked to replay after the id it gave, and what it sends
// back is numbered from that map again. A resumption is therefore served from the SDK's store only
// by the process that recorded the stream (another process has no map to read it with); for a store
// that several instances share, give the Node package's own `eventStore` (keyed by the engine's
// numbering) to `Server.mount()` / `serveHttp()` instead.

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** `store`, an SDK EventStore, as `{append, replay, removeSession}`. */
function sdkEventStore (store) {
  if (store === null || typeof store !== 'object') throw new TypeError(`eventStore must be an object, got ${describe(store)}`)
  for (const m of ['storeEvent', 'replayEventsAfter']) {
    if (typeof store[m] !== 'function') throw new TypeError(`eventStore.${m} must be a function, got ${describe(store[m])}`)
  }
  /** session -> stream -> {ids: seq -> store id, events: store id -> {seq, kind, errorCode}} */
  const sessions = new Map()
  const streamOf = (session, stream, create) => {
    let streams = sessions.get(session)
    if (streams === undefined) {
      if (!create) return undefined
      streams = new Map()
      sessions.set(session, streams)
    }
    let s = streams.get(stream)
    if (s === undefined && create) {
      s = { ids: new Map(), events: new Map() }
      streams.set(stream, s)
    }
    return s
  }
  const checkedId = (id) => {
    if (typeof id !== 'string' || id === '') throw new TypeError(`eventStore.storeEvent resolved to ${describe(id)}, not an event id (a non-empty string)`)
    return id
  }
  return {
    async append (session, event) {
      const streamId = `${session}-${event.stream}`
      const s = streamOf(session, event.stream, true)
      // The stream's start, as the SDK records it (an empty priming message), so that a client
      // resuming from the priming event (seq 0) is replayed the whole stream.
      if (!s.ids.has(0)) s.ids.set(0, checkedId(await store.storeEvent(streamId, {})))
      const id = checkedId(await store.storeEvent(streamId, JSON.parse(event.data)))
      s.ids.set(event.seq, id)
      s.events.set(id, { seq: event.seq, kind: event.kind, errorCode: event.errorCode })
    },
    async replay (session, stream, after) {
      const s = streamOf(session, stream, false)
      if (s === undefined) return after === 0 ? [] : 'unknown'
      const from = s.ids.get(after)
      if (from === undefined) return 'unknown'
      const sent = new Map()
      await store.replayEventsAfter(from, {
        send: async (eventId, message) => {
          const e = s.events.get(eventId)
          // Events of other streams, and the priming one, are not this stream's messages.
          if (e !== undefined && e.seq > after) sent.set(e.seq, { ...e, data: JSON.stringify(message) })
        },
      })
      const events = []
      for (const seq of [...s.ids.keys()].filter((q) => q > after).sort((a, b) => a - b)) {
        // The store no longer has an event this process recorded: the client must start over.
        if (!sent.has(seq)) return 'evicted'
        events.push(sent.get(seq))
      }
      return events
    },
    removeSession (session) {
      // The SDK's interface has no removal: what was stored stays in the store, as with the SDK.
      sessions.delete(session)
    },
  }
}

module.exports = { sdkEventStore }
