'use strict'
// Large strings of results and params (a server's handlers and a client's calls alike), handed
// between JS and the engine beside their JSON text instead of inside it (the engine's side:
// bindings-node/src/large_strings.rs). `JSON.stringify` checks every character of a string for
// escapes one at a time (on Node 20 a 64 KiB text costs it about a fifth of a whole echo call),
// and the text is then read back from JSON on the other side; a JS string handed over as it is
// is copied with two fast passes. Such a string is written as the addon's marker followed by its
// index in the list that goes beside the text. The values are the same either way.

const native = require('../index.js')

/** Strings at least this long (in UTF-16 units) are handed over apart. */
const LARGE = 4096

/** How many values of a result `hasLargeString` looks at before it gives up (a result of many
 * small values goes the plain way, which is right for it). */
const LOOK = 64

const MARKER = native.largeStringMarker()

/** Whether one of the first `LOOK` values of `value` (own enumerable members, depth first; typed
 * arrays are not looked into) is a string of `LARGE` units or more. Only a guess at which way is
 * faster: both give the same JSON. */
function hasLargeString (value) {
  const stack = [value]
  let budget = LOOK
  while (stack.length > 0 && budget > 0) {
    const v = stack.pop()
    budget--
    if (typeof v === 'string') {
      if (v.length >= LARGE) return true
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length && i < budget; i++) stack.push(v[i])
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      // `for...in` stops early without first listing every key of a large object.
      let n = 0
      for (const k in v) {
        if (n++ >= budget) break
        if (Object.hasOwn(v, k)) stack.push(v[k])
      }
    }
  }
  return false
}

/** `value` as JSON text, and its large strings when it has any (`strings` is then an array, else
 * undefined). Throws what `JSON.stringify` throws (a cycle, a BigInt). */
function stringifyWithStrings (value) {
  if (!hasLargeString(value)) return { text: JSON.stringify(value), strings: undefined }
  const strings = []
  // A string of the value that itself starts with the marker goes apart too, so every marker in
  // the text is one written here.
  const text = JSON.stringify(value, (key, v) => {
    if (typeof v !== 'string' || (v.length < LARGE && !v.startsWith(MARKER))) return v
    strings.push(v)
    return MARKER + (strings.length - 1)
  })
  return { text, strings }
}

/** Answers request `id` with the result object `value` at the next flush; `false` if it was
 * answered already. Throws what `JSON.stringify` throws (a cycle, a BigInt). */
function replyResult (id, value) {
  const { text, strings } = stringifyWithStrings(value)
  return native.requestReply(id, text, strings)
}

/** Parses JSON `text` whose large strings are in `strings` (written by the addon as markers),
 * or `undefined` when there are none. */
function parseWithStrings (text, strings) {
  if (strings === undefined || strings === null) return JSON.parse(text)
  return JSON.parse(text, (key, v) => {
    if (typeof v !== 'string' || !v.startsWith(MARKER)) return v
    const index = v.slice(MARKER.length)
    const s = /^[0-9]+$/.test(index) ? strings[Number(index)] : undefined
    return s === undefined ? v : s
  })
}

module.exports = { replyResult, stringifyWithStrings, parseWithStrings, hasLargeString, LARGE, LOOK }
