'use strict'
// A handler's result on its way to the engine: JSON text, with large strings handed over apart.
// `JSON.stringify` checks every character of a string for escapes one at a time (on Node 20 a
// 64 KiB text costs it about a fifth of a whole echo call) and the engine then reads the text back
// from JSON; a JS string given to the addon as it is is copied with two fast passes. So a result
// holding a string of LARGE characters or more is written with each such string replaced by the
// addon's marker and its index, and the strings go beside the text
// (bindings-node/src/large_strings.rs puts them back). The JSON is the same either way.

const native = require('../index.js')

/** Strings at least this long (in UTF-16 units) are handed over apart. */
const LARGE = 4096

/** How many values of a result `hasLargeString` looks at before it gives up (a result of many
 * small values goes the plain way, which is right for it). */
const LOOK = 64

const MARKER = native.largeStringMarker()

/** Whether one of the first `LOOK` values of `value` (own enumerable members, depth first) is a
 * string of `LARGE` units or more. Only a guess at which way is faster: both give the same JSON. */
function hasLargeString (value) {
  const stack = [value]
  let budget = LOOK
  while (stack.length > 0 && budget > 0) {
    const v = stack.pop()
    budget--
    if (typeof v === 'string') {
      if (v.length >= LARGE) return true
    } else if (v !== null && typeof v === 'object') {
      const items = Array.isArray(v) ? v : Object.values(v)
      for (let i = 0; i < items.length && i < budget; i++) stack.push(items[i])
    }
  }
  return false
}

/** Answers request `id` with the result object `value` at the next flush; `false` if it was
 * answered already. Throws what `JSON.stringify` throws (a cycle, a BigInt). */
function replyResult (id, value) {
  if (!hasLargeString(value)) return native.requestReply(id, JSON.stringify(value))
  const strings = []
  // A string of the result that itself starts with the marker goes apart too, so every marker in
  // the text is one written here.
  const text = JSON.stringify(value, (key, v) => {
    if (typeof v !== 'string' || (v.length < LARGE && !v.startsWith(MARKER))) return v
    strings.push(v)
    return MARKER + (strings.length - 1)
  })
  return native.requestReplyWithStrings(id, text, strings)
}

module.exports = { replyResult, hasLargeString, LARGE, LOOK }
