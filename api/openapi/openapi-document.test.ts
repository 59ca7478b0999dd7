// The OpenAPI document against the app itself: every route the Hono app serves under /api is in
// it with a description, and request bodies come from the routes' valibot schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { ROUTE_DESCRIPTIONS } from './route-descriptions.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** Every METHOD /api/path the app routes, path parameters written as OpenAPI writes them. */
function appRoutes(): string[] {
  const routes = t.app.routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/') && !r.path.includes('*'))
    .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
  return [...new Set(routes)].sort()
}

describe('GET /api/openapi.json', () => {
  it('describes every route of the app, and nothing the app does not serve', async () => {
    const res = await t.app.request('/api/openapi.json')
    expect(res.status).toBe(200)
    const doc = await res.json()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: '/api' }])
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'veilmail_session' })
    const documented: string[] = []
    const undescribed: string[] = []
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { summary?: string; responses: Record<string, { description?: string }> }>>)) {
      for (const [method, op] of Object.entries(item)) {
        const key = `${method.toUpperCase()} /api${path}`
          .replace('/api/aliases/{id}', method === 'get' || method === 'post' ? '/api/aliases/{userId}' : '/api/aliases/{aliasId}')
          .replace('/api/undelivered/{undeliveredIdOrWebhooks}/{retryOrDeliveryId}', method === 'post' ? '/api/undelivered/{undeliveredId}/retry' : '/api/undelivered/webhooks/{deliveryId}')
        documented.push(key)
        if (!op.summary) undescribed.push(key)
        for (const response of Object.values(op.responses)) expect(response.description).toBeTruthy()
      }
    }
    expect(undescribed).toEqual([])
    expect(documented.sort()).toEqual(appRoutes())
    expect(Object.keys(ROUTE_DESCRIPTIONS).sort()).toEqual(appRoutes())
  })

  it('takes request bodies and query parameters from the valibot schemas the routes validate with', async () => {
    const doc = await (await t.app.request('/api/openapi.json')).json()
    const register = doc.paths['/auth/register'].post
    const schema = register.requestBody.content['application/json'].schema
    expect(schema.type).toBe('object')
    // the schema's own limits (shared/auth-schemas.ts), not a hand-written copy
    expect(schema.properties.email).toMatchObject({ type: 'string', format: 'email', maxLength: 254 })
    expect(schema.properties.password).toMatchObject({ type: 'string', minLength: 8, maxLength: 1024 })
    expect(register.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    expect(doc.components.schemas.Error.required).toEqual(['message'])
    const nonce = doc.paths['/auth/wallet/nonce'].get
    expect(nonce.parameters.some((p: { in: string }) => p.in === 'query')).toBe(true)
    // the alias routes take an API key in place of the cookie (issue 28); the key routes themselves only the cookie
    expect(doc.paths['/aliases/{id}'].delete.security).toEqual([{ session: [] }, { apiKey: [] }])
    expect(doc.paths['/health'].get.security).toEqual([])
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.paths['/api-keys'].post.security).toEqual([{ session: [] }])
    expect(doc.paths['/api-keys'].post.requestBody.content['application/json'].schema.properties.name).toMatchObject({ type: 'string', maxLength: 64 })
    expect(doc.paths['/aliases/{id}'].delete.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true, description: expect.stringContaining("alias's id") })])
    expect(doc.paths['/aliases/{id}'].get.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true, description: expect.stringContaining("user's id") })])
    // a field whose absence the schema refuses is required ({} is refused), one it may lack is not
    expect(doc.paths['/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password'])
    expect(doc.paths['/auth/login'].post.requestBody.content['application/json'].schema.properties.email.default).toBeUndefined()
    expect(doc.paths['/aliases/{id}'].put.requestBody.content['application/json'].schema.required).toEqual([])
    // real statuses: 202 for register, 201 for a new alias, with the error statuses they answer
    expect(Object.keys(doc.paths['/auth/register'].post.responses)).toEqual(['202', '400', '403', '413', '429'])
    expect(Object.keys(doc.paths['/aliases/{id}'].post.responses)).toEqual(['201', '400', '401', '403', '404', '409', '413', '429'])
  })

  it('names the session cookie the server sets: __Host-veilmail_session over https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://veilmail.example' })
    try {
      const doc = await (await secure.app.request('/api/openapi.json')).json()
      expect(doc.components.securitySchemes.session.name).toBe('__Host-veilmail_session')
    } finally {
      await secure.close()
    }
  })
})
