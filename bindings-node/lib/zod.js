'use strict'
// Zod schemas given to registrations, handled as the official TypeScript SDK's McpServer handles
// them: the major version is read from each schema (Zod 4 schemas, including those of `zod/v4` and
// `zod/v4-mini` in Zod 3.25, carry `_zod`; Zod 3 schemas, including `zod/v3` of Zod 3.25 and 4,
// carry `_def`), arguments are parsed by the schema itself (defaults, coercion, transforms,
// refinements, unknown keys stripped) and the JSON Schema listed is what Zod's converter writes:
// `toJSONSchema` of Zod 4 (draft-07, input or output side), `zod-to-json-schema` for Zod 3 (the
// converter the SDK uses). Zod itself is never a dependency of this package: it is loaded from the
// application when a raw shape (`{a: z.string()}`) must become an object schema, and for Zod 4's
// converter.

const { createRequire } = require('node:module')
const path = require('node:path')

/** 4 for a Zod 4 schema, 3 for a Zod 3 schema, 0 for anything else. */
function zodMajor (s) {
  if (s === null || typeof s !== 'object') return 0
  if (s._zod !== undefined) return 4
  if (s._def !== undefined && typeof s.safeParse === 'function') return 3
  return 0
}

/** A raw shape as the SDK accepts one: a plain object, not a schema, that is empty or has a Zod
 * schema among its values. */
function isRawShape (s) {
  if (s === null || typeof s !== 'object' || Array.isArray(s) || '_def' in s || '_zod' in s) return false
  const values = Object.values(s)
  return values.length === 0 || values.some((v) => zodMajor(v) !== 0)
}

/** Whether `s` is a Zod schema or a raw shape of Zod schemas (what `toZod` takes). */
function isZodInput (s) {
  return zodMajor(s) !== 0 || isRawShape(s)
}

/** Requires `id` as the application would: from this package first, then from the main module's
 * directory and the working directory (an application whose package manager does not let this
 * package see its dependencies). */
function load (id) {
  const bases = [__filename]
  if (require.main && require.main.filename) bases.push(require.main.filename)
  bases.push(path.join(process.cwd(), 'noop.js'))
  let first
  for (const base of bases) {
    try {
      return createRequire(base)(id)
    } catch (e) {
      first ??= e
    }
  }
  throw new TypeError(`a Zod schema was given but ${id} cannot be loaded (${first.message})`)
}

/** Zod 3's API: `zod/v3` (Zod 3.25 and 4), else the `zod` of Zod 3 before 3.25. */
function zod3 () {
  try {
    return load('zod/v3')
  } catch (e) {
    const z = load('zod')
    if (typeof z.object === 'function' && typeof z.ZodType === 'function' && !('_zod' in z.string())) return z
    throw e
  }
}

/** The object schema of a raw shape, made with the shape's Zod (every value of one major version;
 * an empty shape is an empty Zod 4 object, as in the SDK). */
function objectOfShape (shape, what) {
  const values = Object.values(shape)
  const majors = new Set(values.map(zodMajor))
  if (majors.has(0)) {
    const bad = Object.keys(shape).find((k) => zodMajor(shape[k]) === 0)
    throw new TypeError(`${what}.${bad} is not a Zod schema`)
  }
  if (majors.size > 1) throw new TypeError(`${what} mixes Zod 3 and Zod 4 schemas`)
  if (majors.has(3)) return zod3().object(shape)
  return load('zod/v4-mini').object(shape)
}

/** The Zod schema of `s` (a Zod schema, or a raw shape made an object schema). */
function toZod (s, what) {
  return zodMajor(s) !== 0 ? s : objectOfShape(s, what)
}

/** The metadata (description, title, examples, ...) Zod 4's converter writes, for schemas of any
 * copy of Zod 4: `registry` (the converter's own Zod's global registry) first, then what the
 * schema's own Zod keeps (`.meta()`): Zod 3.25's `zod/v4` keeps `.describe()` in its own registry,
 * which a converter from another copy does not see. */
function metadataOf (registry) {
  const own = (s) => {
    if (registry.get(s) !== undefined) return registry.get(s)
    return typeof s.meta === 'function' ? s.meta() : undefined
  }
  return { get: own, has: (s) => own(s) !== undefined }
}

/** JSON Schema of Zod schema `schema`, for `io` `'input'` (what callers send) or `'output'` (what
 * the schema gives), as the SDK lists it. */
function jsonSchemaOf (schema, io, what) {
  try {
    if (zodMajor(schema) === 4) {
      const z = load('zod/v4-mini')
      return z.toJSONSchema(schema, { target: 'draft-7', io, metadata: metadataOf(z.globalRegistry) })
    }
    const { zodToJsonSchema } = require('zod-to-json-schema')
    return zodToJsonSchema(schema, { strictUnions: true, pipeStrategy: io })
  } catch (e) {
    throw new TypeError(`${what}: ${e.message}`)
  }
}

/** A path as the SDK's messages write it: `a.b[0]`. */
function dotPath (segments) {
  let out = ''
  segments.forEach((seg, i) => {
    const key = seg !== null && typeof seg === 'object' ? seg.key : seg
    if (i === 0) out = String(key)
    else if (typeof key === 'number') out += `[${key}]`
    else out += `.${String(key)}`
  })
  return out
}

/** The issues of a failed parse as one message, as the SDK writes it: each issue's message, with
 * ` at PATH` when it has a path, one per line. */
function issuesMessage (issues) {
  return issues.map((i) => (i.path && i.path.length ? `${i.message} at ${dotPath(i.path)}` : i.message)).join('\n')
}

/** Parses `value` with Zod schema `schema`: `{value}` (Zod's output) or `{issues}`, or a promise
 * of one when the schema is async (async refinements or transforms). Uses the Standard Schema
 * interface both majors implement (Zod 3.24+), else Zod 3's `safeParseAsync`. */
function parse (schema, value) {
  const standard = schema['~standard']
  if (standard !== undefined && typeof standard.validate === 'function') return standard.validate(value)
  return schema.safeParseAsync(value).then((r) => (r.success ? { value: r.data } : { issues: r.error.issues }))
}

/** The shape (`{key: schema}`) of a Zod object schema, else undefined. */
function shapeOf (schema) {
  const shape = zodMajor(schema) === 4 ? schema._zod.def.shape : schema.shape
  return shape !== null && typeof shape === 'object' ? shape : undefined
}

/** Whether an object field of schema `field` may be left out (optional, or with a default). */
function mayBeOmitted (field) {
  if (zodMajor(field) === 4) return field._zod.optin === 'optional'
  return typeof field.isOptional === 'function' && field.isOptional()
}

module.exports = { shapeOf, mayBeOmitted, zodMajor, isRawShape, isZodInput, toZod, jsonSchemaOf, parse, issuesMessage }
