import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onLogEvent } from '../../lib/log.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { latestLink, mailboxOf, tokenOf } from '../../scripts/testing/mailbox.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  // One proxy in front (TRUST_PROXY=1), so a test can speak from an address of its own.
  t = await createTestApp({ RATE_LIMITS: 'login-account=4/900,login-ip=30/900,register-ip=1000/3600', LOGIN_DELAY_SECONDS: '600/600', TRUST_PROXY: '1' })
})
afterAll(() => t.close())

const from = (ip: string) => ({ 'x-forwarded-for': ip })
const sessionsOf = async (userId: string, app = t) => (await app.db.sql`select count(*)::int as count from sessions where user_id = ${userId}`)[0].count as number

const email = () => `Person.${crypto.randomUUID()}@Example.com`

describe('registration', () => {
  it('creates the account, signs it in once the mailed link is followed, and sets a safe cookie', async () => {
    const client = new ApiClient(t.app)
    const address = email()
    const registered = await client.post('/api/auth/register', { email: `  ${address} `, password: 'longenough' })
    expect(registered.status).toBe(202)
    expect(registered.headers.getSetCookie()).toEqual([]) // nobody is signed in before the address is proven
    const token = tokenOf(await latestLink(mailboxOf(t.app)!, address, '/verify-email'))
    const res = await client.post('/api/auth/verify-email', { token })
    expect(res.status).toBe(200)
    const { user } = await res.json()
    expect(user).toMatchObject({ email: address.toLowerCase(), authMethod: 'email', balance: '0.00', walletAddress: null, emailVerified: true })
    expect(user).not.toHaveProperty('passwordHash')
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('veilmail_session='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).not.toMatch(/Secure/)
    const session = await client.json(client.get('/api/auth/session'))
    expect(session.status).toBe(200)
    expect(session.body.user.id).toBe(user.id)
    const [row] = await t.db.sql`select password_hash from users where id = ${user.id}`
    expect(row.passwordHash).toMatch(/^\$argon2id\$/)
  })

  it('gives a message per field for bad input', async () => {
    const client = new ApiClient(t.app)
    const bad = await client.json(client.post('/api/auth/register', { email: 'not-an-email', password: 'short' }))
    expect(bad.status).toBe(400)
    expect(bad.body.errors.email).toEqual(['Valid email address is required'])
    expect(bad.body.errors.password).toEqual(['Password must be at least 8 characters'])
    const missing = await client.json(client.post('/api/auth/register', {}))
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('Valid email address is required')
  })

  it('makes no second account for the same e-mail whatever its case, and answers exactly as for a new one', async () => {
    const client = new ApiClient(t.app)
    const address = email()
    const first = await client.json(client.post('/api/auth/register', { email: address, password: 'longenough' }))
    const again = await client.json(new ApiClient(t.app).post('/api/auth/register', { email: address.toUpperCase(), password: 'longenough' }))
    expect(first.status).toBe(202)
    expect(again).toEqual({ status: 202, body: { ...first.body, email: address.toUpperCase().toLowerCase() } })
    const [{ count }] = await t.db.sql`select count(*)::int as count from users where lower(email) = ${address.toLowerCase()}`
    expect(count).toBe(1)
  })
})

describe('sign-in', () => {
  it('rotates the token at sign-in and logout ends the session', async () => {
    const first = new ApiClient(t.app)
    const { email: address, password } = await first.register()
    const oldToken = first.cookies.get('veilmail_session')
    const second = new ApiClient(t.app)
    second.cookies.set('veilmail_session', oldToken!)
    expect((await second.post('/api/auth/login', { email: address, password })).status).toBe(200)
    const newToken = second.cookies.get('veilmail_session')
    expect(newToken).toBeDefined()
    expect(newToken).not.toBe(oldToken)
    expect((await first.get('/api/auth/session')).status).toBe(401) // the old token is gone
    expect((await second.post('/api/auth/logout')).status).toBe(200)
    const replay = new ApiClient(t.app)
    replay.cookies.set('veilmail_session', newToken!)
    expect((await replay.get('/api/auth/session')).status).toBe(401)
    const [{ count }] = await t.db.sql`select count(*)::int as count from sessions s join users u on u.id = s.user_id where u.email = ${address.toLowerCase()}`
    expect(count).toBe(0)
  })

  it('answers an unknown e-mail exactly like a wrong password, after the same argon2id check', async () => {
    const client = new ApiClient(t.app)
    const { email: address } = await client.register()
    // the work is counted, not timed: a busy machine makes any time ratio flaky
    const attempt = async (body: object) => {
      let checks = 0
      const stop = onLogEvent((_level, event) => { if (event === 'auth.password_checked') checks++ })
      try {
        return { ...(await client.json(client.post('/api/auth/login', body))), checks }
      } finally {
        stop()
      }
    }
    const wrong = await attempt({ email: address, password: 'not the password' })
    const unknown = await attempt({ email: email(), password: 'not the password' })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(unknown.body).toEqual(wrong.body)
    expect(wrong.body.message).toBe('Invalid email or password')
    // both paths run one argon2id verification; neither returns early
    expect(wrong.checks).toBe(1)
    expect(unknown.checks).toBe(1)
    // stored hashes carry the parameters the unknown-account stand-in is made with (RFC 9106, OWASP's 19 MiB, t=2)
    const [{ hash }] = await t.db.sql`select password_hash as hash from users where email = ${address.toLowerCase()}`
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/)
  })

  it('rate-limits failed sign-ins per account with 429 { rateLimited, message, resetTime }', async () => {
    const client = new ApiClient(t.app)
    const { email: address, password } = await client.register()
    for (let i = 0; i < 4; i++) expect((await client.post('/api/auth/login', { email: address, password: 'wrong-password' })).status).toBe(401)
    const limited = await client.json(client.post('/api/auth/login', { email: address, password }))
    expect(limited.status).toBe(429)
    expect(limited.body.rateLimited).toBe(true)
    expect(limited.body.message).toMatch(/Too many/)
    expect(new Date(limited.body.resetTime).getTime()).toBeGreaterThan(Date.now())
    const [row] = await t.db.sql`select count, action_type from rate_limits where key = ${address.toLowerCase()} and action_type = 'login-account'`
    expect(row).toMatchObject({ count: 4, actionType: 'login-account' })
  })

  it('extends a session that is used (sliding expiry)', async () => {
    const client = new ApiClient(t.app)
    const { user } = await client.register()
    await t.db.sql`update sessions set last_seen_at = now() - interval '2 days', expires_at = now() + interval '1 day' where user_id = ${user.id}`
    expect((await client.get('/api/auth/session')).status).toBe(200)
    const [row] = await t.db.sql`select expires_at from sessions where user_id = ${user.id}`
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000)
    await t.db.sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user.id}`
    expect((await client.get('/api/auth/session')).status).toBe(401)
  })
})

describe('sign-in limits under concurrency', () => {
  it('checks at most the account limit of 100 concurrent wrong guesses, and a correct password past the limit does not get in', async () => {
    const { email: address, password, user } = await new ApiClient(t.app).register()
    const sessions = await sessionsOf(user.id)
    const guesses = Array.from({ length: 100 }, (_, i) => new ApiClient(t.app).post('/api/auth/login', { email: address, password: `wrong-${i}` }, from('198.51.100.1')))
    // The limit's attempts are taken (their hashes may still be running): now the owner's
    // password arrives, from another address.
    await expect.poll(async () => (await t.db.sql`select count from rate_limits where action_type = 'login-account' and key = ${address.toLowerCase()}`)[0]?.count ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(4)
    const late = await new ApiClient(t.app).post('/api/auth/login', { email: address, password }, from('203.0.113.1'))
    const statuses = (await Promise.all(guesses)).map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4)
    expect(statuses.filter((s) => s === 429).length).toBe(100 - statuses.filter((s) => s === 401).length)
    expect(late.status).toBe(429)
    expect((await late.json()).message).toMatch(/^Too many failed sign-in attempts for this account\. Please try again in \d+ seconds\.$/)
    expect(await sessionsOf(user.id)).toBe(sessions)
    const [row] = await t.db.sql`select count from rate_limits where action_type = 'login-account' and key = ${address.toLowerCase()}`
    expect(row.count).toBe(4) // refused attempts are not counted
  }, 90_000)

  it('checks at most the address limit of 100 concurrent wrong guesses for different accounts', async () => {
    const guesses = Array.from({ length: 100 }, () => new ApiClient(t.app).post('/api/auth/login', { email: email(), password: 'wrong-password' }, from('198.51.100.2')))
    const statuses = (await Promise.all(guesses)).map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30)
    expect(statuses.filter((s) => s === 429).length).toBe(100 - statuses.filter((s) => s === 401).length)
    const limited = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/login', { email: email(), password: 'wrong-password' }, from('198.51.100.2')))
    expect(limited.status).toBe(429)
    expect(limited.body.message).toMatch(/Too many/)
  }, 90_000)

  it('does not count successful sign-ins against the address', async () => {
    const client = new ApiClient(t.app)
    const { email: address, password } = await client.register()
    for (let i = 0; i < 40; i++) expect((await new ApiClient(t.app).post('/api/auth/login', { email: address, password }, from('198.51.100.3'))).status).toBe(200)
  }, 90_000)
})

describe('known devices', () => {
  /** Wrong guesses from new addresses, one after another, until the account makes everyone but its known browsers wait. */
  const holdBack = async (address: string, network: string) => {
    for (let i = 0; i < 10; i++) {
      const status = (await new ApiClient(t.app).post('/api/auth/login', { email: address, password: `more-${i}` }, from(`${network}.${i}.1`))).status
      if (status === 429) return
      expect(status).toBe(401)
    }
    throw new Error('the account never made guesses wait')
  }

  it("keep the owner's browser signing in while strangers' guesses hold the account back, and only for that account", async () => {
    const { email: address, password } = await new ApiClient(t.app).register()
    const owner = new ApiClient(t.app)
    expect((await owner.post('/api/auth/login', { email: address, password }, from('203.0.113.20'))).status).toBe(200)
    const device = owner.cookies.get('veilmail_device')!
    expect(device).toMatch(/^[\w-]{22}\.[\w-]{43}$/)

    // Strangers, each from another address, use up the account's free attempts: it now waits 600 s.
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      new ApiClient(t.app).post('/api/auth/login', { email: address, password: `guess-${i}` }, from(`10.77.${i}.1`))))
    expect(guesses.filter((r) => r.status === 401).length).toBeLessThanOrEqual(4)
    // a guess refused at once was never checked and does not count: guesses go on until the account waits
    await holdBack(address, '10.79')
    const stranger = new ApiClient(t.app)
    expect((await stranger.post('/api/auth/login', { email: address, password }, from('203.0.113.20'))).status).toBe(429)

    // The owner's browser is spaced on its own counter: in at once, and the cookie is kept.
    expect((await owner.post('/api/auth/login', { email: address, password }, from('203.0.113.20'))).status).toBe(200)
    expect(owner.cookies.get('veilmail_device')!.split('.')[0]).toBe(device.split('.')[0])

    // The cookie is signed for this account: tampered, or carried to another account, it is just a stranger.
    const other = await new ApiClient(t.app).register()
    await holdBack(other.email, '10.78')
    for (const cookie of [device, `${device.split('.')[0]}.${'A'.repeat(43)}`]) {
      const carrier = new ApiClient(t.app)
      carrier.cookies.set('veilmail_device', cookie)
      expect((await carrier.post('/api/auth/login', { email: other.email, password: other.password }, from('203.0.113.21'))).status).toBe(429)
    }
    const tampered = new ApiClient(t.app)
    tampered.cookies.set('veilmail_device', `${device.split('.')[0]}.${'A'.repeat(43)}`)
    expect((await tampered.post('/api/auth/login', { email: address, password }, from('203.0.113.20'))).status).toBe(429)

    // A known device guessing wrong is spaced too (4 free, then it waits).
    for (let i = 0; i < 4; i++) expect((await owner.post('/api/auth/login', { email: address, password: 'not it' }, from('203.0.113.20'))).status).toBe(401)
    expect((await owner.post('/api/auth/login', { email: address, password }, from('203.0.113.20'))).status).toBe(429)
  }, 90_000)
})

describe('sign-in spacing per account', () => {
  // 3 free failures, then waits of 1 s doubling up to 2 s; failures forgotten after 15 minutes.
  let spaced: TestApp
  beforeAll(async () => {
    spaced = await createTestApp({ RATE_LIMITS: 'login-account=3/900,login-ip=20/900', LOGIN_DELAY_SECONDS: '1/2', TRUST_PROXY: '1' })
  })
  afterAll(() => spaced.close())

  it("lets the owner in from their own address after a bounded wait, however many guesses an attacker made", async () => {
    const { email: address, password, user } = await new ApiClient(spaced.app).register()
    // A distributed attacker: every guess from another address, so no per-address limit slows it.
    let round = 0
    const attack = async () => {
      round++
      return (await Promise.all(Array.from({ length: 50 }, (_, i) =>
        new ApiClient(spaced.app).post('/api/auth/login', { email: address, password: `guess-${i}` }, from(`10.${round}.${i}.1`))))).map((r) => r.status)
    }
    const first = await attack()
    expect(first.filter((s) => s === 401).length).toBeLessThanOrEqual(3)
    // Keep guessing until the waits have grown to their longest: the attacker is slowed, never the owner locked out.
    await expect.poll(async () => {
      await attack()
      const [row] = await spaced.db.sql`select count, extract(epoch from next_allowed_at - last_action)::float8 as wait from rate_limits where action_type = 'login-account' and key = ${address.toLowerCase()}`
      return row.count >= 5 && row.wait
    }, { timeout: 60_000, interval: 100 }).toBe(2)
    const owner = new ApiClient(spaced.app)
    await expect.poll(async () => (await owner.post('/api/auth/login', { email: address, password }, from('203.0.113.50'))).status, { timeout: 30_000, interval: 200 }).toBe(200)
    expect((await owner.get('/api/auth/session')).status).toBe(200)
    expect(await spaced.db.sql`select 1 from rate_limits where action_type = 'login-account' and key = ${address.toLowerCase()}`).toHaveLength(0)
    expect(await sessionsOf(user.id, spaced)).toBe(2) // registration's and the owner's
  }, 120_000)
})

describe('CSRF', () => {
  const bodies: [string, string | undefined, string | undefined][] = [
    ['form', 'application/x-www-form-urlencoded', 'email=a%40b.c&password=12345678'],
    ['multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--\r\n'],
    ['text/plain', 'text/plain', '{"email":"a@b.c","password":"12345678"}'],
    ['JSON', 'application/json', '{"email":"a@b.c","password":"12345678"}'],
    ['no content type', undefined, undefined],
  ]
  it.each(bodies)('refuses a cross-site %s request with 403', async (_name, type, body) => {
    const headers: Record<string, string> = { origin: 'https://evil.example' }
    if (type) headers['content-type'] = type
    const res = await t.app.request('http://localhost:3000/api/auth/register', { method: 'POST', headers, body })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ message: 'Cross-site request refused' })
  })

  it('refuses by Sec-Fetch-Site when there is no Origin, and lets our own origin through', async () => {
    const client = new ApiClient(t.app)
    expect((await client.post('/api/auth/logout', undefined, { 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await client.post('/api/auth/logout', undefined, { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    const { user } = await client.register()
    expect((await client.request('DELETE', '/api/account', undefined, { origin: 'http://attacker.test' })).status).toBe(403)
    expect((await client.get('/api/auth/session')).status).toBe(200)
    expect(user.id).toBeDefined()
  })
})

describe('HTTP errors', () => {
  it('answers malformed JSON with 400, large bodies with 413, unknown API paths with 404', async () => {
    const client = new ApiClient(t.app)
    const malformed = await client.json(client.post('/api/auth/login', '{"email":', { 'content-type': 'application/json' }))
    expect(malformed).toEqual({ status: 400, body: { message: 'Malformed JSON in request body' } })
    const big = await client.json(client.post('/api/auth/login', JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) })))
    expect(big).toEqual({ status: 413, body: { message: 'Request body is too large' } })
    expect(await client.json(client.get('/api/no-such-thing'))).toEqual({ status: 404, body: { message: 'Not found' } })
    expect((await client.json(client.post('/api/no-such-thing', {}))).status).toBe(404)
  })

  it('says which providers are configured', async () => {
    expect(await new ApiClient(t.app).json(t.app.request('/api/auth/providers'))).toEqual({ status: 200, body: { google: false, microsoft: false } })
  })
})
