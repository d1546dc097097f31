'use strict'
// Session and event stores kept by the application (`serveHttp({sessionStore, eventStore})` and
// `mount(...)`): the store objects wrapped as the one function bindings-node/src/http_stores.rs
// calls with `{op, ...}` as JSON text. It resolves to `{ok: value}` or `{error: message}` as JSON
// text and never rejects, so a store that throws fails that one operation (the engine answers the
// request it served with 503 naming the message), never the server.

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

const SESSION_METHODS = ['load', 'save', 'remove']
const EVENT_METHODS = ['append', 'replay', 'removeSession']

/** Checks that `store` is an object with each of `methods` (a TypeError naming the first missing). */
function checkStore (store, what, methods) {
  if (store === null || typeof store !== 'object') throw new TypeError(`${what} must be an object, got ${describe(store)}`)
  for (const m of methods) {
    if (typeof store[m] !== 'function') throw new TypeError(`${what}.${m} must be a function, got ${describe(store[m])}`)
  }
}

/** What a replay gave, checked: an array of `{seq, kind, errorCode?, data}` or 'evicted'/'unknown'
 * (the engine checks the events' fields and order itself). */
function replayAnswer (value) {
  if (value === 'evicted' || value === 'unknown' || Array.isArray(value)) return value
  throw new TypeError(`eventStore.replay gave ${describe(value)}, not an array of events, 'evicted' or 'unknown'`)
}

/**
 * The addon-facing function for `sessionStore` and `eventStore` (either may be undefined; at least
 * one is given). Event operations of one session run one after the other, in the order the engine
 * made them (an append waits for the one before, a replay for every append before it), whether the
 * store's methods are sync or async.
 */
function storeFunction (sessionStore, eventStore) {
  if (sessionStore !== undefined) checkStore(sessionStore, 'sessionStore', SESSION_METHODS)
  if (eventStore !== undefined) checkStore(eventStore, 'eventStore', EVENT_METHODS)
  /** The last event operation queued per session. */
  const queues = new Map()
  const inOrder = (session, op) => {
    const before = queues.get(session) ?? Promise.resolve()
    const done = before.then(op, op)
    const settled = done.then(() => {}, () => {})
    queues.set(session, settled)
    settled.then(() => { if (queues.get(session) === settled) queues.delete(session) })
    return done
  }
  const ops = {
    'session.load': async ({ id }) => (await sessionStore.load(id)) ?? null,
    'session.save': async ({ record }) => { await sessionStore.save(record); return null },
    'session.remove': async ({ id }) => (await sessionStore.remove(id)) === true,
    'event.append': ({ session, event }) => inOrder(session, async () => { await eventStore.append(session, event); return null }),
    'event.replay': ({ session, stream, after }) => inOrder(session, async () => replayAnswer(await eventStore.replay(session, stream, after))),
    'event.remove': ({ session }) => inOrder(session, async () => { await eventStore.removeSession(session); return null }),
  }
  return async (json) => {
    const request = JSON.parse(json)
    try {
      return JSON.stringify({ ok: await ops[request.op](request) })
    } catch (e) {
      return JSON.stringify({ error: e instanceof Error ? e.message : String(e) })
    }
  }
}

module.exports = { storeFunction }
