// API keys (issue 28): created once, listed without the key, stored as a hash only, at most 20
// per user even when created at once, revoked at once, gone with the account; and the alias
// routes accepting `Authorization: Bearer <key>` in place of the cookie, reading no cookie then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { onLogEvent } from '../../lib/log.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'alias-create=25/3600' })
})
afterAll(() => t.close())

const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop'

async function userWithKey(name = 'Bitwarden') {
  const client = new ApiClient(t.app)
  const { user, email } = await client.register()
  const res = await client.json(client.post('/api/api-keys', { name }))
  expect(res.status).toBe(201)
  return { client, userId: user.id as string, email, key: res.body.apiKey.key as string, keyId: res.body.apiKey.id as string }
}

/** A request as a browser extension sends it: its own origin, the key, no cookie. */
function withKey(key: string, method: string, path: string, body?: unknown, origin = EXTENSION) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, origin }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return t.app.request(`http://localhost:3000${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}

describe('API keys', () => {
  it('shows the key once, lists name, first characters and dates, and stores only a hash', async () => {
    const { client, key, keyId } = await userWithKey('Bitwarden on my laptop')
    expect(key).toMatch(/^vm_[A-Za-z0-9]{44}$/)
    const list = await client.json(client.get('/api/api-keys'))
    expect(list.body.apiKeys).toEqual([{ id: keyId, name: 'Bitwarden on my laptop', prefix: key.slice(0, 11), createdAt: expect.any(String), lastUsedAt: null }])
    expect(JSON.stringify(list.body)).not.toContain(key.slice(11))
    const rows = await t.db.sql`select * from api_keys where id = ${keyId}`
    const stored = JSON.stringify(rows, (_k, v) => (v?.type === 'Buffer' ? Buffer.from(v.data).toString('latin1') : v))
    expect(stored).not.toContain(key.slice(3))
    expect(stored).not.toContain(key.slice(11, 30))
  })

  it('refuses a missing or too long name', async () => {
    const client = new ApiClient(t.app)
    await client.register()
    expect((await client.json(client.post('/api/api-keys', { name: '  ' }))).body.errors.name).toEqual(['Name is required'])
    expect((await client.json(client.post('/api/api-keys', { name: 'x'.repeat(65) }))).status).toBe(400)
  })

  it('creates at most 20 per user, also when 30 are asked for at once', async () => {
    const client = new ApiClient(t.app)
    await client.register()
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => client.post('/api/api-keys', { name: `key ${i}` })))
    expect(answers.filter((r) => r.status === 201)).toHaveLength(20)
    expect(answers.filter((r) => r.status === 409)).toHaveLength(10)
    expect((await client.json(client.get('/api/api-keys'))).body.apiKeys).toHaveLength(20)
  })

  it('is managed with the session only: a key cannot list, create or revoke keys, nor reach other cookie routes', async () => {
    const { key, keyId } = await userWithKey()
    expect((await withKey(key, 'GET', '/api/api-keys', undefined, 'http://localhost:3000')).status).toBe(401)
    expect((await withKey(key, 'POST', '/api/api-keys', { name: 'more' }, 'http://localhost:3000')).status).toBe(401)
    expect((await withKey(key, 'DELETE', `/api/api-keys/${keyId}`, undefined, 'http://localhost:3000')).status).toBe(401)
    expect((await withKey(key, 'GET', '/api/account-stats', undefined, 'http://localhost:3000')).status).toBe(401)
    // a cookie route from an extension's origin is refused before anything (cross-site)
    expect((await withKey(key, 'DELETE', '/api/account')).status).toBe(403)
  })

  it("revoking a key: the next call gets 401; another user's key id is 404", async () => {
    const a = await userWithKey()
    const b = await userWithKey()
    expect((await b.client.json(b.client.delete(`/api/api-keys/${a.keyId}`))).status).toBe(404)
    expect((await withKey(a.key, 'GET', `/api/aliases/${a.userId}`)).status).toBe(200)
    expect((await a.client.json(a.client.delete(`/api/api-keys/${a.keyId}`))).status).toBe(200)
    expect(await (await withKey(a.key, 'GET', `/api/aliases/${a.userId}`)).json()).toEqual({ message: 'Invalid API key' })
  })

  it('records the day a key was last used', async () => {
    const { client, key, userId } = await userWithKey()
    await withKey(key, 'GET', `/api/aliases/${userId}`)
    const [listed] = (await client.json(client.get('/api/api-keys'))).body.apiKeys
    expect(new Date(listed.lastUsedAt).toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10))
  })

  it('deleting the account removes its keys', async () => {
    const { client, key, userId } = await userWithKey()
    expect((await client.delete('/api/account')).status).toBe(200)
    expect(await t.db.sql`select id from api_keys where user_id = ${userId}`).toEqual([])
    expect((await withKey(key, 'GET', `/api/aliases/${userId}`)).status).toBe(401)
  })
})

describe('the alias routes with Authorization: Bearer', () => {
  it('create, list, change, pause and delete aliases from an extension origin, with no cookie and no CSRF token', async () => {
    const { key, userId, email } = await userWithKey()
    const created = await withKey(key, 'POST', `/api/aliases/${userId}`, { alias: `shop-${crypto.randomUUID().slice(0, 8)}`, domain: 'veil.test', forwardTo: email })
    expect(created.status).toBe(201)
    const { alias } = await created.json()
    expect(alias).toMatchObject({ madeBy: 'api', hostname: null, forwardTo: email })
    expect((await (await withKey(key, 'GET', `/api/aliases/${userId}`)).json()).aliases.map((a: { id: string }) => a.id)).toEqual([alias.id])
    expect((await withKey(key, 'PUT', `/api/aliases/${alias.id}`, { notes: 'from the CLI' })).status).toBe(200)
    expect((await withKey(key, 'PATCH', `/api/aliases/${alias.id}/toggle`, { active: false })).status).toBe(200)
    expect((await withKey(key, 'DELETE', `/api/aliases/${alias.id}`)).status).toBe(200)
  })

  it("reaches only the key owner's aliases: another user's alias or user id answers 404", async () => {
    const a = await userWithKey()
    const b = await userWithKey()
    const res = await b.client.json(b.client.post(`/api/aliases/${b.userId}`, { alias: `b-${crypto.randomUUID().slice(0, 8)}`, domain: 'veil.test', forwardTo: b.email }))
    const bAlias = res.body.alias.id
    expect((await withKey(a.key, 'GET', `/api/aliases/${b.userId}`)).status).toBe(404)
    expect((await withKey(a.key, 'POST', `/api/aliases/${b.userId}`, { alias: 'x1y2z3', domain: 'veil.test', forwardTo: a.email })).status).toBe(404)
    for (const [method, path, body] of [['PUT', `/api/aliases/${bAlias}`, { notes: 'mine now' }], ['PATCH', `/api/aliases/${bAlias}/toggle`, { active: false }], ['DELETE', `/api/aliases/${bAlias}`], ['GET', `/api/aliases/${bAlias}/webhook-secret`]] as const) {
      expect(`${method} ${(await withKey(a.key, method, path, body)).status}`).toBe(`${method} 404`)
    }
    expect((await b.client.json(b.client.get(`/api/aliases/${b.userId}`))).body.aliases[0]).toMatchObject({ id: bAlias, active: true, notes: null })
  })

  it('reads no cookie: a wrong or malformed key with a valid session cookie is 401, and so is a cookie sent from an extension', async () => {
    const { client, userId } = await userWithKey()
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    for (const value of ['Bearer vm_' + 'A'.repeat(44), 'Bearer nonsense', 'Bearer ' + 'x'.repeat(5000), "Bearer vm_' or 1=1 --"]) {
      const res = await t.app.request(`http://localhost:3000/api/aliases/${userId}`, { headers: { authorization: value, cookie } })
      expect(`${value.slice(0, 20)} ${res.status}`).toBe(`${value.slice(0, 20)} 401`)
    }
    const fromExtension = await t.app.request(`http://localhost:3000/api/aliases/${userId}`, { headers: { cookie, origin: EXTENSION } })
    expect(fromExtension.status).toBe(401)
    // the same cookie from our own origin still works
    expect((await t.app.request(`http://localhost:3000/api/aliases/${userId}`, { headers: { cookie, origin: 'http://localhost:3000' } })).status).toBe(200)
  })

  it('answers the extension with its origin allowed, and logs no key', async () => {
    const events: string[] = []
    const stop = onLogEvent((level, event, fields) => events.push(JSON.stringify({ level, event, fields })))
    try {
      const { key, userId } = await userWithKey()
      const res = await withKey(key, 'GET', `/api/aliases/${userId}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(EXTENSION)
      expect((await withKey(key.slice(0, -1) + 'x', 'GET', `/api/aliases/${userId}`)).status).toBe(401)
      await t.app.request('/compat/simplelogin/api/user_info', { headers: { authentication: key } })
      await t.app.request('/compat/addy/api/v1/aliases', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"domain":"veil.test"}' })
      expect(events.length).toBeGreaterThan(0)
      expect(events.filter((e) => e.includes(key.slice(3, 20)))).toEqual([])
    } finally {
      stop()
    }
  })

  it('the key without its vm_ label works too (the addy.io extension accepts letters and digits only)', async () => {
    const { key, userId } = await userWithKey()
    expect((await withKey(key.slice(3), 'GET', `/api/aliases/${userId}`)).status).toBe(200)
  })
})

describe('CORS on the key routes', () => {
  const preflight = (path: string, origin: string) => t.app.request(`http://localhost:3000${path}`, {
    method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  })

  it('answers extension origins on the alias and compat routes, never with credentials, and nobody else', async () => {
    for (const path of ['/api/aliases/00000000-0000-4000-8000-000000000000', '/compat/addy/api/v1/aliases', '/compat/simplelogin/api/alias/random/new']) {
      for (const origin of [EXTENSION, 'moz-extension://0d5cba2d-8c2e-4b8a-9b5e-2c4c35f6a1de']) {
        const res = await preflight(path, origin)
        expect(res.status).toBe(204)
        expect(res.headers.get('access-control-allow-origin')).toBe(origin)
        expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization')
        expect(res.headers.get('access-control-allow-credentials')).toBeNull()
      }
      expect((await preflight(path, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull()
      expect((await preflight(path, 'chrome-extension://x/../evil')).headers.get('access-control-allow-origin')).toBeNull()
    }
    for (const path of ['/api/api-keys', '/api/account', '/api/email-jobs']) {
      expect((await preflight(path, EXTENSION)).headers.get('access-control-allow-origin')).toBeNull()
    }
  })
})

describe('wrong keys from one address', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMITS: 'api-key-ip=3/900' })
  })
  afterAll(() => limited.close())

  it('are counted, and past the limit answer 429 in each API', async () => {
    const wrong = 'vm_' + 'B'.repeat(44)
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await limited.app.request('/api/aliases/00000000-0000-4000-8000-000000000000', { headers: { authorization: `Bearer ${wrong}` } })).status)
    expect(statuses).toEqual([401, 401, 401])
    expect((await limited.app.request('/api/aliases/00000000-0000-4000-8000-000000000000', { headers: { authorization: `Bearer ${wrong}` } })).status).toBe(429)
    const sl = await limited.app.request('/compat/simplelogin/api/user_info', { headers: { authentication: wrong } })
    expect([sl.status, await sl.json()]).toEqual([429, { error: expect.any(String) }])
    const addy = await limited.app.request('/compat/addy/api/v1/domain-options', { headers: { authorization: `Bearer ${wrong}` } })
    expect([addy.status, await addy.json()]).toEqual([429, { message: 'Too Many Attempts.' }])
  })
})
