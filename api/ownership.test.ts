// Walks the whole route table: every route that is not public needs a session, and every route
// with an id in its path answers user A with 404 for each resource of user B.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../scripts/testing/api-client.ts'
import { makeRouteResources } from '../scripts/testing/route-fixtures.ts'
import { createTestApp, type TestApp } from '../scripts/testing/test-app.ts'

const PUBLIC = new Set([
  'GET /api/health', 'GET /api/stats', 'GET /api/domains', 'GET /api/openapi.json',
  'GET /api/auth/session', 'GET /api/auth/providers', 'POST /api/auth/register', 'POST /api/auth/login', 'POST /api/auth/logout',
  'GET /api/auth/wallet/nonce', 'POST /api/auth/wallet', 'GET /api/auth/google', 'GET /api/auth/google/callback',
  // the links mailed about an account: the token (or the address) is what they carry, not a session
  'POST /api/auth/verify-email', 'POST /api/auth/resend-verification', 'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password', 'POST /api/auth/confirm-target',
  // the second step of a sign-in: the pending sign-in's cookie is what it carries, not a session
  'GET /api/auth/second-factor', 'POST /api/auth/second-factor', 'POST /api/auth/passkey/options', 'POST /api/auth/passkey',
  // a forward's unsubscribe and block links (issue 30): the signed token in the path is the authority, for whoever holds the mail
  'GET /api/unsubscribe/:token', 'GET /api/unsubscribe/:token/details', 'POST /api/unsubscribe/:token',
])
/** Pages a browser navigates to (Microsoft sign-in for a mailbox): without a session they send it to sign in. */
const SIGN_IN_FIRST = new Set(['GET /api/auth/microsoft', 'GET /api/auth/microsoft/callback'])

let t: TestApp
let a: ApiClient
let b: ApiClient
/** User B's resources, by the path parameter that names them. */
const ofB: Record<string, string> = {}

beforeAll(async () => {
  // every optional route on, so each is walked (Microsoft sign-in answers 404 when unconfigured)
  t = await createTestApp({ MICROSOFT_CLIENT_ID: 'ownership-test', MICROSOFT_CLIENT_SECRET: 'ownership-test-secret' })
  a = new ApiClient(t.app)
  b = new ApiClient(t.app)
  await a.register()
  const { user } = await b.register()
  // one of each resource the routes name, made through the API where it can be (route-fixtures.ts)
  Object.assign(ofB, await makeRouteResources(t, b, user, 'b'))
})
afterAll(() => t.close())

function apiRoutes() {
  const seen = new Set<string>()
  return t.app.routes
    .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !r.path.includes('*'))
    .filter((r) => {
      const key = `${r.method} ${r.path}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}

const fill = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => {
  if (!(name in ofB)) throw new Error(`${path}: no fixture of user B for :${name}; add one to api/ownership.test.ts`)
  return ofB[name]
})

describe('route table', () => {
  it('needs a session on every route that is not public', async () => {
    const guarded = apiRoutes().filter((r) => !PUBLIC.has(`${r.method} ${r.path}`))
    expect(guarded.length).toBeGreaterThan(0)
    for (const r of guarded) {
      const res = await new ApiClient(t.app).request(r.method, fill(r.path), r.method === 'GET' ? undefined : {})
      const expected = SIGN_IN_FIRST.has(`${r.method} ${r.path}`) ? '302 /auth' : '401'
      const location = res.status === 302 ? ` ${new URL(res.headers.get('location') ?? '', 'http://x').pathname}` : ''
      expect(`${r.method} ${r.path} → ${res.status}${location}`).toBe(`${r.method} ${r.path} → ${expected}`)
    }
    expect([...SIGN_IN_FIRST].every((route) => guarded.some((r) => `${r.method} ${r.path}` === route))).toBe(true)
  })

  it("answers 404 to user A for every resource of user B", async () => {
    for (const r of apiRoutes().filter((r) => r.path.includes(':') && !PUBLIC.has(`${r.method} ${r.path}`))) {
      const res = await a.request(r.method, fill(r.path), r.method === 'GET' ? undefined : {})
      expect(`${r.method} ${r.path} → ${res.status}`).toBe(`${r.method} ${r.path} → 404`)
    }
    // ids in request bodies are checked the same way
    expect((await a.post('/api/smtp-credentials', { aliasId: ofB.aliasId })).status).toBe(404)
    expect((await a.json(a.post('/api/email-jobs', { to: 'x@example.org', subject: 's', body: 'b', fromAliasId: ofB.aliasId }))).status).toBe(400)
    // and B's things are untouched
    expect((await b.json(b.get(`/api/email-jobs/${ofB.jobId}/status`))).body.status).toBe('pending')
    const list = await b.json(b.get(`/api/aliases/${ofB.userId}`))
    expect(list.body.aliases).toHaveLength(1)
    expect(list.body.aliases[0]).toMatchObject({ active: true, forwardTo: 'b@example.com' })
    expect((await b.json(b.get(`/api/alias-contacts/${ofB.aliasId}`))).body.contacts).toMatchObject([{ id: ofB.contactId, blockedAt: null }])
    expect((await b.json(b.get('/api/unsubscribe-events'))).body.events).toMatchObject([{ id: ofB.eventId }])
    const keys = await b.json(b.get('/api/encryption-keys'))
    expect(keys.body.keys).toMatchObject([{ id: ofB.keyId, isDefault: true }])
    expect((await a.json(a.get('/api/undelivered'))).body.undelivered).toEqual([])
    expect((await b.json(b.get('/api/undelivered'))).body.undelivered).toMatchObject([{ id: ofB.undeliveredId, status: 'kept', kept: true }])
    expect((await a.json(a.get('/api/undelivered/webhooks'))).body.failures).toEqual([])
    expect((await b.json(b.get('/api/undelivered/webhooks'))).body.failures).toMatchObject([{ id: ofB.deliveryId, lastError: 'http-503' }])
    // B's mailbox and mail: not listed or counted for A, and untouched by A's PATCH/DELETE
    expect((await a.json(a.get('/api/email-providers'))).body.providers).toEqual([])
    expect((await a.json(a.get(`/api/emails?providerId=${ofB.providerId}`))).body.emails).toEqual([])
    expect((await a.get(`/api/emails?folder=${ofB.folderId}`)).status).toBe(404)
    expect((await a.get(`/api/emails/counts?folder=${ofB.folderId}`)).status).toBe(404)
    expect((await b.json(b.get(`/api/emails?folder=${ofB.folderId}`))).body.emails).toMatchObject([{ id: ofB.emailId }])
    expect((await a.json(a.get('/api/emails/counts'))).body).toMatchObject({ total: 0, unread: 0, starred: 0 })
    expect((await b.json(b.get('/api/emails/counts'))).body).toMatchObject({ total: 1, unread: 1, starred: 0 })
    expect((await b.json(b.get(`/api/emails/${ofB.emailId}`))).body.email).toMatchObject({ subject: 'b mail', isRead: false, isStarred: false })
    expect((await b.json(b.get('/api/email-providers'))).body.providers).toMatchObject([{ id: ofB.providerId, state: 'connecting' }])
  })
})
