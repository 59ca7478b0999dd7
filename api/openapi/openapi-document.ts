// The OpenAPI 3.1 document of the public API, served at /api/openapi.json. hono-openapi walks the
// app's routes; request bodies and query parameters come from the valibot schemas the routes
// validate with (api/http/validate.ts), the words from route-descriptions.ts.
import type { Hono } from 'hono'
import { generateSpecs } from 'hono-openapi'
import type { AppEnv } from '../context.ts'
import { ROUTE_DESCRIPTIONS } from './route-descriptions.ts'

const ErrorBody = {
  type: 'object' as const,
  properties: {
    message: { type: 'string' as const },
    errors: { type: 'object' as const, additionalProperties: { type: 'array' as const, items: { type: 'string' as const } }, description: 'messages per field' },
  },
  required: ['message'],
}

type Operation = { summary?: string; tags?: string[]; security?: unknown[]; responses?: Record<string, { description?: string }> }

/** The document for `api` mounted at /api. */
export async function openApiDocument(api: Hono<AppEnv>, version: string) {
  const doc = await generateSpecs(api as unknown as Hono, {
    includeEmptyPaths: true,
    excludeStaticFile: false,
    documentation: {
      info: { title: 'Veilmail API', version, description: 'Aliases, forwarding, sending from an alias, age encryption. Errors answer { message, errors? }.' },
      servers: [{ url: '/api' }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'session' }, apiKey: { type: 'http', scheme: 'bearer', description: 'An API key made in Settings, API keys (vm_…)' } } },
    },
    defaultValidationErrorResponse: { description: 'Invalid request', content: { 'application/json': { schema: ErrorBody } } },
  })
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {}) as [string, Operation][]) {
      const described = ROUTE_DESCRIPTIONS[`${method.toUpperCase()} /api${path}`]
      if (!described) continue // the test names every route without a description
      operation.summary = described.summary
      operation.tags = [described.tag]
      if (described.signedIn) operation.security = described.apiKey ? [{ session: [] }, { apiKey: [] }] : [{ session: [] }]
      for (const [status, response] of Object.entries(operation.responses ?? {})) response.description ??= status.startsWith('2') ? 'Success' : 'Error'
    }
  }
  return doc
}
