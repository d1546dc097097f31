'use strict'
// Schemas given to registrations: a JSON Schema object passes unchanged and the engine checks
// values against it; a Zod schema or raw shape of Zod schemas (see zod.js) is listed as the JSON
// Schema Zod writes for it and values are parsed by Zod in this package instead (the engine is told
// not to check them). Conversions are made once per schema object.

const zod = require('./zod')

const converted = { input: new WeakMap(), output: new WeakMap() }

function describe (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v
}

/** `{json, zod}` for `schema` (a JSON Schema object, a Zod schema or a raw Zod shape), `zod` the
 * Zod schema that parses values when there is one; `undefined` stays `undefined`. `io` is the side
 * the JSON Schema describes (`'input'` for arguments, `'output'` for structured output), `what`
 * names the schema in errors. */
function schemaOf (schema, what, io = 'input') {
  if (schema === undefined) return undefined
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new TypeError(`${what} must be a JSON Schema object or a Zod schema, got ${describe(schema)}`)
  }
  if (!zod.isZodInput(schema)) return { json: schema, zod: undefined }
  const hit = converted[io].get(schema)
  if (hit) return hit
  const z = zod.toZod(schema, what)
  const made = { json: zod.jsonSchemaOf(z, io, what), zod: z }
  converted[io].set(schema, made)
  return made
}

module.exports = { schemaOf }
