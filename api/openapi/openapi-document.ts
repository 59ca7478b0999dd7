// The OpenAPI 3.1 document of the public API, served at /api/openapi.json. hono-openapi walks the
// app's routes; request bodies and query parameters come from the valibot schemas the routes
// validate with (api/http/validate.ts), the words from route-descriptions.ts, and what each route
// answers (statuses and bodies) from route-responses.ts. api/openapi/openapi-conformance.test.ts
// calls every operation and checks each answer against this document.
import { toJsonSchema } from '@valibot/to-json-schema'
import type { Hono } from 'hono'
import { generateSpecs } from 'hono-openapi'
import type * as v from 'valibot'
import type { AppEnv } from '../context.ts'
import { markRequired } from '../http/validate.ts'
import { ROUTE_DESCRIPTIONS } from './route-descriptions.ts'
import { ERROR_DESCRIPTIONS, ErrorBody, ROUTE_RESPONSES, type Body, type ErrorStatus, type RouteResponses } from './route-responses.ts'

type JsonSchema = Record<string, unknown>
type Parameter = { in: string; name: string; required?: boolean; description?: string; schema?: JsonSchema }
type Operation = {
  summary?: string; tags?: string[]; security?: unknown[]; parameters?: Parameter[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  responses?: Record<string, unknown>
}

export function jsonSchemaOf(body: Body): JsonSchema {
  if (!('kind' in body && typeof (body as { '~standard'?: unknown })['~standard'] === 'object')) return body as JsonSchema
  const { $schema: _, ...schema } = toJsonSchema(body as v.GenericSchema, { errorMode: 'ignore', target: 'draft-2020-12' }) as JsonSchema
  return schema
}

/** The OpenAPI path of a route key (`GET /api/aliases/{userId}` → `/aliases/{userId}`), or its template. */
export function documentedPath(routeKey: string, answers: RouteResponses | undefined = ROUTE_RESPONSES[routeKey]): string {
  return answers?.template?.path ?? routeKey.slice(routeKey.indexOf(' /api') + 5)
}

/**
 * The error statuses of an operation: its own (route-responses.ts) and what every route of its kind
 * answers — 401 and 403 (address not confirmed) when it needs a session, 404 with a path parameter,
 * 400 with a body or query parameters, 403 (another Origin) and 413 (over 1 MiB) with a body.
 */
function errorStatuses(method: string, key: string, operation: Operation, signedIn: boolean, answers: RouteResponses): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(answers.errors)
  if (signedIn && !answers.redirectsSignedOut) statuses.add(401).add(403)
  if (key.includes('{')) statuses.add(404)
  if (operation.requestBody || operation.parameters?.some((p) => p.in === 'query')) statuses.add(400)
  if (method !== 'get') statuses.add(403)
  if (operation.requestBody) statuses.add(413)
  return [...statuses].sort()
}

/** The document for `api` mounted at /api; `sessionCookie` is the cookie's name (api/auth/session.ts). */
export async function openApiDocument(api: Hono<AppEnv>, version: string, sessionCookie: string) {
  const doc = await generateSpecs(api as unknown as Hono, {
    includeEmptyPaths: true,
    excludeStaticFile: false,
    documentation: {
      info: { title: 'Veilmail API', version, description: 'Aliases, forwarding, sending from an alias, age encryption. Errors answer { message, errors? }.' },
      servers: [{ url: '/api' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: sessionCookie, description: 'The session cookie set by signing in (veilmail_session; __Host-veilmail_session when served over https). Requests with it from another Origin are refused with 403.' },
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key made in Settings, API keys (vm_…)' },
        },
        schemas: { Error: ErrorBody as never },
      },
    },
  })
  const paths: Record<string, Record<string, Operation>> = {}
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {}) as [string, Operation][]) {
      const key = `${method.toUpperCase()} /api${path}`
      const described = ROUTE_DESCRIPTIONS[key]
      const answers = ROUTE_RESPONSES[key]
      const template = answers?.template
      const target = template?.path ?? path
      ;(paths[target] ??= {})[method] = operation
      if (!described || !answers) continue // the tests name every route without a description or answers
      operation.summary = described.summary
      operation.tags = [described.tag]
      operation.security = described.signedIn ? (described.apiKey ? [{ session: [] }, { apiKey: [] }] : [{ session: [] }]) : []
      if (template) {
        const pathParams = Object.entries(template.params).map(([name, p]) => ({ in: 'path', name, required: true, description: p.description, schema: p.schema }))
        operation.parameters = [...pathParams, ...(operation.parameters ?? []).filter((p) => p.in !== 'path')]
      }
      if (answers.requestBody && !operation.requestBody) {
        const schema = jsonSchemaOf(answers.requestBody.schema)
        markRequired(schema, answers.requestBody.schema)
        operation.requestBody = { description: answers.requestBody.description, content: { 'application/json': { schema } } } as Operation['requestBody']
      }
      const responses: Record<string, unknown> = {}
      const ok = answers.ok
      responses[String(ok.status)] = {
        description: ok.description,
        ...(ok.status === 302 ? { headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } } } : {}),
        ...(ok.body ? { content: { [ok.contentType ?? 'application/json']: { schema: jsonSchemaOf(ok.body) } } } : {}),
      }
      for (const status of errorStatuses(method, key, operation, Boolean(described.signedIn), answers)) {
        responses[String(status)] = { description: answers.errorNotes?.[status] ?? ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
      }
      operation.responses = responses
    }
  }
  doc.paths = paths as typeof doc.paths
  return doc
}
