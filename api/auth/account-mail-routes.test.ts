// Issue 11 items 3 and 8: an e-mail account is usable only once the link mailed to its address
// was followed; registration answers the same for a taken address and tells its owner; password
// reset by a single-use, expiring link ends every session; Google links only to a verified
// address; every mail-sending or link-using request is counted before the work, also at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { latestLink, mailboxOf, systemMailsTo, tokenOf, type Mailbox } from '../../scripts/testing/mailbox.ts'
import { startOidcStandIn, type OidcStandIn } from '../../scripts/testing/oidc-stand-in.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
let google: OidcStandIn
let mailbox: Mailbox
beforeAll(async () => {
  google = await startOidcStandIn()
  t = await createTestApp({ ...google.env, RATE_LIMITS: 'mail-address=3/3600,mail-ip=1000/3600,token-ip=1000/900,register-ip=1000/3600' })
  mailbox = mailboxOf(t.app)!
})
afterAll(async () => {
  await t.close()
  await google.close()
})

const address = () => `acct-${crypto.randomUUID()}@example.com`
const password = 'correct horse battery'

async function registerUnverified(client: ApiClient, email = address()) {
  const res = await client.json(client.post('/api/auth/register', { email, password }))
  expect(res.status).toBe(202)
  return email
}

describe('e-mail verification', () => {
  it('mails a real, single-use link From no-reply; the account is unusable until it is followed', async () => {
    const client = new ApiClient(t.app)
    const email = await registerUnverified(client)
    expect((await client.get('/api/auth/session')).status).toBe(401)
    // signing in with the password works, but the account can do nothing yet
    const login = await client.json(client.post('/api/auth/login', { email, password }))
    expect(login.status).toBe(200)
    expect(login.body.user.emailVerified).toBe(false)
    const blocked = await client.json(client.get(`/api/aliases/${login.body.user.id}`))
    expect(blocked).toEqual({ status: 403, body: { message: expect.stringMatching(/Confirm your e-mail address/), verificationRequired: true } })

    const [mail] = await systemMailsTo(mailbox, email)
    expect(mail.subject).toBe('Confirm your e-mail address for Veilmail')
    expect(mail.raw.toString()).toMatch(/^From: Veilmail <no-reply@veilmail\.test>/m)
    const link = await latestLink(mailbox, email, '/verify-email')
    expect(link).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=[A-Za-z0-9_-]{43}$/)
    const [job] = await t.db.sql`select source, alias_id, status, priority from email_jobs where recipient_email = ${email}`
    expect(job).toMatchObject({ source: 'system', aliasId: null, status: 'pending', priority: 10 })
    // only the token's hash is stored
    const tokens = await t.db.sql`select token_hash from account_tokens where email = ${email}`
    expect(tokens).toHaveLength(1)
    expect(Buffer.from(tokens[0].tokenHash).toString('base64url')).not.toBe(tokenOf(link))

    const verified = await client.json(client.post('/api/auth/verify-email', { token: tokenOf(link) }))
    expect(verified.status).toBe(200)
    expect(verified.body.user).toMatchObject({ email, emailVerified: true })
    expect((await client.get(`/api/aliases/${verified.body.user.id}`)).status).toBe(200)
    // single use
    const again = await client.json(new ApiClient(t.app).post('/api/auth/verify-email', { token: tokenOf(link) }))
    expect(again).toEqual({ status: 400, body: { message: 'This link is invalid or has expired', errors: { token: ['This link is invalid or has expired'] } } })
  })

  it('refuses an expired link and a forged one', async () => {
    const email = await registerUnverified(new ApiClient(t.app))
    const token = tokenOf(await latestLink(mailbox, email, '/verify-email'))
    await t.db.sql`update account_tokens set expires_at = now() - interval '1 second' where email = ${email}`
    const client = new ApiClient(t.app)
    expect((await client.post('/api/auth/verify-email', { token })).status).toBe(400)
    expect((await client.post('/api/auth/verify-email', { token: 'A'.repeat(43) })).status).toBe(400)
    expect((await client.post('/api/auth/verify-email', { token: "' or 1=1 --" })).status).toBe(400)
    const [user] = await t.db.sql`select email_verified_at from users where email = ${email}`
    expect(user.emailVerifiedAt).toBeNull()
  })

  it('resends the link (rate limited per address, counted before the work, also at once) and answers the same for unknown addresses', async () => {
    const email = await registerUnverified(new ApiClient(t.app)) // 1 of 3 mails to this address
    const unknown = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/resend-verification', { email: address() }))
    const first = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/resend-verification', { email }))
    expect(first.status).toBe(200)
    expect(unknown).toEqual(first)
    // 10 at once: exactly one more fits the limit of 3
    const burst = await Promise.all(Array.from({ length: 10 }, () => new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/resend-verification', { email }))))
    expect(burst.filter((r) => r.status === 200)).toHaveLength(1)
    const limited = burst.filter((r) => r.status === 429)
    expect(limited).toHaveLength(9)
    expect(limited[0].body).toMatchObject({ rateLimited: true, message: expect.stringMatching(/Too many/), resetTime: expect.any(String) })
    expect(await systemMailsTo(mailbox, email)).toHaveLength(3)
  })

  it('registration of a taken address answers like a new one, mails the owner a notice, and is counted at once', async () => {
    const owner = new ApiClient(t.app)
    const { email, user } = await owner.register()
    const fresh = address()
    const forNew = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/register', { email: fresh, password }))
    const forTaken = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/register', { email: email.toUpperCase(), password: 'attacker password' }))
    expect(forTaken.status).toBe(202)
    expect(forTaken.body).toEqual({ ...forNew.body, email })
    expect(forTaken.body.message).toMatch(/Check your mail/)
    const mails = await systemMailsTo(mailbox, email)
    expect(mails.map((m) => m.subject)).toEqual(['Confirm your e-mail address for Veilmail', 'Someone tried to register with your address'])
    expect(mails[1].text).toContain('http://localhost:3000/forgot-password')
    expect(mails[1].text).toContain('http://localhost:3000/auth')
    // the owner's password and session are untouched
    expect((await owner.get('/api/auth/session')).status).toBe(200)
    expect((await new ApiClient(t.app).post('/api/auth/login', { email, password: 'attacker password' })).status).toBe(401)
    const [row] = await t.db.sql`select id from users where lower(email) = ${email}`
    expect(row.id).toBe(user.id)
    // repeated attempts cannot flood the owner: 10 at once, one more mail at most (limit 3)
    await Promise.all(Array.from({ length: 10 }, () => new ApiClient(t.app).post('/api/auth/register', { email, password })))
    expect(await systemMailsTo(mailbox, email)).toHaveLength(3)
  })
})

describe('password reset', () => {
  it('mails a single-use link; the new password works, the old does not, every session ends', async () => {
    const laptop = new ApiClient(t.app)
    const { email } = await laptop.register()
    const phone = new ApiClient(t.app)
    expect((await phone.post('/api/auth/login', { email, password })).status).toBe(200)

    const asked = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/forgot-password', { email }))
    const unknown = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/forgot-password', { email: address() }))
    expect(asked.status).toBe(200)
    expect(unknown).toEqual(asked) // never says whether an account exists
    const link = await latestLink(mailbox, email, '/reset-password')
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=/)

    const short = await laptop.json(laptop.post('/api/auth/reset-password', { token: tokenOf(link), password: 'short' }))
    expect(short.status).toBe(400)
    expect(short.body.errors.password).toEqual(['Password must be at least 8 characters'])
    const reset = await new ApiClient(t.app).json(new ApiClient(t.app).post('/api/auth/reset-password', { token: tokenOf(link), password: 'a brand new password' }))
    expect(reset.status).toBe(200)
    expect((await laptop.get('/api/auth/session')).status).toBe(401)
    expect((await phone.get('/api/auth/session')).status).toBe(401)
    expect((await new ApiClient(t.app).post('/api/auth/login', { email, password })).status).toBe(401)
    expect((await new ApiClient(t.app).post('/api/auth/login', { email, password: 'a brand new password' })).status).toBe(200)
    // single use
    expect((await new ApiClient(t.app).post('/api/auth/reset-password', { token: tokenOf(link), password: 'third password!' })).status).toBe(400)
  })

  it('a reset link used at once by 20 requests changes the password once', async () => {
    const { email } = await new ApiClient(t.app).register()
    await new ApiClient(t.app).post('/api/auth/forgot-password', { email })
    const token = tokenOf(await latestLink(mailbox, email, '/reset-password'))
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => new ApiClient(t.app).post('/api/auth/reset-password', { token, password: `new password ${i}` })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 400)).toHaveLength(19)
  })

  it('forgot-password is counted per address before any work, also for unknown addresses, also at once', async () => {
    const nobody = address()
    const results = await Promise.all(Array.from({ length: 12 }, () => new ApiClient(t.app).post('/api/auth/forgot-password', { email: nobody })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(3)
    expect(results.filter((r) => r.status === 429)).toHaveLength(9)
    const [row] = await t.db.sql`select count from rate_limits where action_type = 'mail-address' and key = ${nobody}`
    expect(row.count).toBe(12)
  })
})

describe('link limits per client address', () => {
  it('counts verification, reset and confirmation links per IP before looking them up, also at once', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'token-ip=5/900' })
    try {
      const tries = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        new ApiClient(limited.app).post(['/api/auth/verify-email', '/api/auth/reset-password', '/api/auth/confirm-target'][i % 3], { token: 'B'.repeat(43), password: 'long enough' })))
      expect(tries.filter((r) => r.status === 400)).toHaveLength(5)
      expect(tries.filter((r) => r.status === 429)).toHaveLength(15)
    } finally {
      await limited.close()
    }
  })
})

describe('Google and unverified addresses (pre-account takeover)', () => {
  async function signInWithGoogle(client: ApiClient, profile: { sub: string; email: string; email_verified: boolean }) {
    const start = await client.get('/api/auth/google')
    const grant = google.authorize(start.headers.get('location')!, profile)
    const back = await client.get(`/api/auth/google/callback?code=${grant.code}&state=${grant.state}`)
    return back.headers.get('location')
  }

  it('never links Google to an account whose address nobody proved; the owner resets, then Google links', async () => {
    // the attacker registers the victim's address first and never verifies it
    const victim = address()
    await registerUnverified(new ApiClient(t.app), victim)
    const sub = `g-${crypto.randomUUID()}`
    const browser = new ApiClient(t.app)
    expect(await signInWithGoogle(browser, { sub, email: victim, email_verified: true })).toBe('/auth?error=google-unverified')
    expect((await browser.get('/api/auth/session')).status).toBe(401)
    const [row] = await t.db.sql`select google_id, email_verified_at from users where email = ${victim}`
    expect(row).toEqual({ googleId: null, emailVerifiedAt: null })

    // the real owner resets the password through the mail, which proves the address
    await new ApiClient(t.app).post('/api/auth/forgot-password', { email: victim })
    const token = tokenOf(await latestLink(mailbox, victim, '/reset-password'))
    expect((await new ApiClient(t.app).post('/api/auth/reset-password', { token, password: 'the owner password' })).status).toBe(200)
    expect(await signInWithGoogle(browser, { sub, email: victim, email_verified: true })).toBe('/dashboard')
    expect((await browser.json(browser.get('/api/auth/session'))).body.user).toMatchObject({ email: victim, googleId: sub, emailVerified: true })
  })
})
