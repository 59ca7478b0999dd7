// Request validation with valibot. A bad body answers 400 { message, errors } where errors maps
// each field to its messages (the browser shows the first one under the field).
import type { Context } from 'hono'
import { validator } from 'hono/validator'
import { resolver, uniqueSymbol } from 'hono-openapi'
import * as v from 'valibot'

export type FieldErrors = Record<string, string[]>

export function fieldErrors(issues: v.BaseIssue<unknown>[]): FieldErrors {
  const flat = v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]])
  const errors: FieldErrors = { ...(flat.nested as FieldErrors) }
  if (flat.root?.length) errors._ = flat.root
  return errors
}

export function invalid(c: Context, issues: v.BaseIssue<unknown>[]) {
  return c.json({ message: issues[0]?.message ?? 'Invalid request', errors: fieldErrors(issues) }, 400)
}

/**
 * Marks a validator with its schema for the OpenAPI document (api/openapi): hono-openapi reads
 * the request body and query parameters of each route from here, converted by
 * @valibot/to-json-schema. Transforms and checks JSON Schema cannot express are left out of the
 * document (errorMode 'ignore'); the server still applies them.
 */
function documented<M extends object>(middleware: M, target: 'json' | 'query', schema: v.GenericSchema): M {
  const resolved = resolver(schema, { errorMode: 'ignore' })
  const toOpenAPISchema: typeof resolved.toOpenAPISchema = async (options) => {
    const result = await resolved.toOpenAPISchema(options)
    markRequired(result.schema as JsonObject, schema)
    return result
  }
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolved, toOpenAPISchema } })
}

type JsonObject = { properties?: Record<string, Record<string, unknown>>; required?: string[] }
/**
 * The fields a body must have, by the schema itself: those whose absence it refuses. A form field
 * made with `text()` reads absent as '' and then refuses '' — JSON Schema would call it optional
 * with a default, though `{}` is refused; the document marks it required, without the default.
 */
export function markRequired(json: JsonObject, schema: v.GenericSchema) {
  const object = ('entries' in schema ? schema : (schema as { pipe?: v.GenericSchema[] }).pipe?.[0]) as { entries?: Record<string, v.GenericSchema> } | undefined
  if (!object?.entries || !json.properties) return
  const required = Object.entries(object.entries).filter(([, entry]) => !v.safeParse(entry, undefined).success).map(([name]) => name)
  for (const name of required) delete json.properties[name]?.default
  json.required = required
}

/** Validates a JSON body; `c.req.valid('json')` then holds the parsed output. */
export function jsonBody<S extends v.GenericSchema>(schema: S) {
  return documented(validator('json', (value, c) => {
    const parsed = v.safeParse(schema, value ?? {}, { abortPipeEarly: true })
    if (!parsed.success) return invalid(c, parsed.issues)
    return parsed.output as v.InferOutput<S>
  }), 'json', schema)
}

/** Validates the query string. */
export function queryParams<S extends v.GenericSchema>(schema: S) {
  return documented(validator('query', (value, c) => {
    const parsed = v.safeParse(schema, value, { abortPipeEarly: true })
    if (!parsed.success) return invalid(c, parsed.issues)
    return parsed.output as v.InferOutput<S>
  }), 'query', schema)
}
