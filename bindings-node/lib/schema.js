'use strict'
// Schemas given to registrations: JSON Schema objects pass unchanged; Zod schemas (Zod 4, which
// has `z.toJSONSchema`) are converted once per schema object, when Zod is installed. Zod is never a
// dependency of this package.

const converted = new WeakMap()

function isZod (s) {
  return s !== null && typeof s === 'object' && ('_zod' in s || '_def' in s)
}

/** A raw Zod shape (`{a: z.string()}`), as the official SDK's `registerTool` accepts. */
function isZodShape (s) {
  if (s === null || typeof s !== 'object' || isZod(s)) return false
  const values = Object.values(s)
  return values.length > 0 && values.every(isZod)
}

function loadZod () {
  try {
    return require('zod')
  } catch {
    throw new TypeError('a Zod schema was given but the zod package cannot be loaded')
  }
}

/** JSON Schema for `schema` (a JSON Schema object, a Zod schema or a raw Zod shape); `undefined`
 * stays `undefined`. `what` names it in errors. */
function toJsonSchema (schema, what) {
  if (schema === undefined) return undefined
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new TypeError(`${what} must be a JSON Schema object or a Zod schema`)
  }
  if (!isZod(schema) && !isZodShape(schema)) return schema
  const hit = converted.get(schema)
  if (hit) return hit
  const z = loadZod()
  if (typeof z.toJSONSchema !== 'function') {
    throw new TypeError(`${what}: converting Zod schemas needs Zod 4 (z.toJSONSchema)`)
  }
  const zod = isZodShape(schema) ? z.object(schema) : schema
  const json = z.toJSONSchema(zod)
  converted.set(schema, json)
  return json
}

module.exports = { toJsonSchema }
