// Walks the whole route table: every route that is not public needs a session, and every route
// with an id in its path answers user A with 404 for each resource of user B.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../scripts/testing/test-app.ts'

const PUBLIC = new Set([
  'GET /api/health', 'GET /api/stats', 'GET /api/domains', 'GET /api/openapi.json',
  'GET /api/auth/session', 'GET /api/auth/providers', 'POST /api/auth/register', 'POST /api/auth/login', 'POST /api/auth/logout',
  'GET /api/auth/wallet/nonce', 'POST /api/auth/wallet', 'GET /api/auth/google', 'GET /api/auth/google/callback',
])

let t: TestApp
let a: ApiClient
let b: ApiClient
/** User B's resources, by the path parameter that names them. */
const ofB: Record<string, string> = {}

beforeAll(async () => {
  t = await createTestApp()
  a = new ApiClient(t.app)
  b = new ApiClient(t.app)
  await a.register()
  const { user } = await b.register()
  ofB.userId = user.id
  const alias = await b.json(b.post(`/api/aliases/${user.id}`, { alias: `b-${user.id.slice(0, 8)}`, domain: 'veilmail.test', forwardTo: 'b@example.com' }))
  ofB.aliasId = alias.body.alias.id
  const credential = await b.json(b.post('/api/smtp-credentials', { aliasId: ofB.aliasId }))
  ofB.credentialId = credential.body.credential.id
  const key = await b.json(b.post('/api/encryption-keys', { keyName: 'b key', masterPassword: 'b master password' }))
  ofB.keyId = key.body.key.id
  const job = await b.json(b.post('/api/email-jobs', { to: 'friend@example.org', subject: 'hi', body: 'hello', fromAliasId: ofB.aliasId }))
  ofB.jobId = job.body.jobId
  // a forward of B's that failed for good (the pipeline's own tests make these the real way)
  const [undelivered] = await t.db.sql<{ id: string }[]>`
    insert into undelivered_messages (user_id, alias_id, target, reason, encrypted, recipient)
    values (${user.id}, ${ofB.aliasId}, 'b@example.com', '550 5.1.1 mailbox unavailable', '-----BEGIN AGE ENCRYPTED FILE-----', 'age1x')
    returning id`
  ofB.undeliveredId = undelivered.id
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
      expect(`${r.method} ${r.path} → ${res.status}`).toBe(`${r.method} ${r.path} → 401`)
    }
  })

  it("answers 404 to user A for every resource of user B", async () => {
    for (const r of apiRoutes().filter((r) => r.path.includes(':'))) {
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
    const keys = await b.json(b.get('/api/encryption-keys'))
    expect(keys.body.keys).toMatchObject([{ id: ofB.keyId, isDefault: true }])
    expect((await a.json(a.get('/api/undelivered'))).body.undelivered).toEqual([])
    expect((await b.json(b.get('/api/undelivered'))).body.undelivered).toMatchObject([{ id: ofB.undeliveredId, status: 'kept', kept: true }])
  })
})
