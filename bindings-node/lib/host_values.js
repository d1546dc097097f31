'use strict'
// What the application's web server established about an HTTP request (Express's `req.auth`, the
// `authInfo` given to `fetch`), kept here while the engine serves the request: the request carries
// only its number through the engine (bindings-node/src/mount.rs), and a handler's context looks
// the value up by that number. The engine lists the numbers it no longer holds; they are forgotten.

const values = new Map()
let next = 1

/** Keeps `value` for a request and returns its number. */
function keep (value) {
  const n = next++
  values.set(n, value)
  return n
}

/** The value kept under number `n`, if any. */
function lookup (n) {
  return n === undefined ? undefined : values.get(n)
}

/** Forgets the values under `numbers`. */
function release (numbers) {
  for (const n of numbers) values.delete(n)
}

module.exports = { keep, lookup, release }
