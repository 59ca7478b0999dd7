import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { latestLink, mailboxOf, systemMailsTo, tokenOf } from '../../scripts/testing/mailbox.ts'
import { authenticatorFor, enableTotp, withCodeAt } from '../../scripts/testing/second-factor.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  // One proxy in front (TRUST_PROXY=1), so a test can speak from an address of its own.
  t = await createTestApp({ TRUST_PROXY: '1', RATE_LIMITS: 'second-factor-account=10/900,second-factor-ip=25/900,webauthn-ip=5/900,login-ip=1000/900,register-ip=1000/3600,mail-address=100/3600' })
})
afterAll(() => t.close())

let ipSeq = 0
const freshIp = () => ({ 'x-forwarded-for': `10.27.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` })

async function signedInWithTotp() {
  const client = new ApiClient(t.app)
  const account = await client.register()
  const totp = await enableTotp(client)
  return { client, ...account, ...totp }
}

async function passwordStep(email: string, password: string, headers: Record<string, string> = freshIp()) {
  const client = new ApiClient(t.app)
  const res = await client.json(client.post('/api/auth/login', { email, password }, headers))
  return { client, res }
}

const subjects = async (to: string) => (await systemMailsTo(mailboxOf(t.app)!, to)).map((m) => m.subject)

describe('TOTP enrolment', () => {
  it('hands out a pending secret as text and as an otpauth:// URI, and turns it on only with a current code', async () => {
    const client = new ApiClient(t.app)
    const { email, user } = await client.register()
    expect((await client.json(client.get('/api/account/totp'))).body).toEqual({ enabled: false, recoveryCodesLeft: 0, passwordRequired: true })
    const started = await client.json(client.post('/api/account/totp'))
    expect(started.status).toBe(201)
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/)
    const uri = new URL(started.body.otpauthUri)
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.host).toBe('totp')
    expect(decodeURIComponent(uri.pathname)).toBe(`/Veilmail:${email}`)
    expect(uri.searchParams.get('issuer')).toBe('Veilmail')
    expect(uri.searchParams.get('secret')).toBe(started.body.secret)

    // pending: signing in still needs only the password
    const before = await passwordStep(email, 'correct horse battery')
    expect(before.res.body.user.id).toBe(user.id)

    // the secret is sealed at rest: its Base32 text and bytes are nowhere in the row
    const [row] = await t.db.sql`select secret_sealed from user_totp where user_id = ${user.id}`
    expect(row.secretSealed.toString('latin1')).not.toContain(started.body.secret)

    const authenticator = authenticatorFor(started.body.otpauthUri)
    for (const bad of ['000000', 'abcdef', '12345', 'x'.repeat(65)]) {
      const wrong = await client.json(client.post('/api/account/totp/confirm', { code: bad === '000000' && authenticator.code() === '000000' ? '111111' : bad }))
      expect(wrong.status).toBe(400)
      expect(wrong.body.errors.code).toBeDefined()
    }
    // a code of the step before is within the drift allowed
    const confirmed = await withCodeAt(authenticator, -1, (code) => client.json(client.post('/api/account/totp/confirm', { code })))
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.recoveryCodes).toHaveLength(10)
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10)
    for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/)
    // stored hashed: no code's text in the table
    const stored = await t.db.sql`select code_hash from recovery_codes where user_id = ${user.id}`
    expect(stored).toHaveLength(10)
    for (const { codeHash } of stored) for (const code of confirmed.body.recoveryCodes) expect(codeHash.toString('latin1')).not.toContain(code.replace('-', ''))

    expect((await client.json(client.get('/api/account/totp'))).body).toEqual({ enabled: true, recoveryCodesLeft: 10, passwordRequired: true })
    expect((await client.json(client.post('/api/account/totp'))).status).toBe(409) // no second enrolment over a confirmed one
    expect((await client.json(client.post('/api/account/totp/confirm', { code: authenticator.code() }))).status).toBe(409)
    // the session that turned it on stays; the one that signed in with the password alone ended
    expect((await client.get('/api/auth/session')).status).toBe(200)
    expect((await before.client.get('/api/auth/session')).status).toBe(401)
    expect(await subjects(email)).toContain('Veilmail: Two-factor authentication is on')
  })
})

describe('the second step', () => {
  it('sets no session after the password, only a pending cookie bound to that browser; a code of the next step signs in, the same code again does not', async () => {
    const { email, password, authenticator, user } = await signedInWithTotp()
    const { client, res } = await passwordStep(email, password)
    expect(res).toEqual({ status: 200, body: { secondFactor: { required: true, methods: ['totp', 'recovery-code'] } } })
    expect(client.cookies.has('veilmail_pending')).toBe(true)
    expect(client.cookies.has('veilmail_session')).toBe(false)
    expect((await client.get('/api/auth/session')).status).toBe(401)
    expect((await client.json(client.get('/api/auth/second-factor'))).body).toEqual({ methods: ['totp', 'recovery-code'] })

    // another browser has no pending sign-in, whatever code it sends
    const stranger = new ApiClient(t.app)
    const refused = await stranger.json(stranger.post('/api/auth/second-factor', { code: authenticator.code() }, freshIp()))
    expect(refused.status).toBe(401)
    expect(refused.body.message).toMatch(/expired/)

    // the step after the current one (clock drift +1) is accepted
    const next = authenticator.code(1)
    const passed = await client.json(client.post('/api/auth/second-factor', { code: next }, freshIp()))
    expect(passed.status).toBe(200)
    expect(passed.body.user.id).toBe(user.id)
    expect(client.cookies.has('veilmail_session')).toBe(true)
    expect(client.cookies.has('veilmail_pending')).toBe(false)
    expect((await client.get('/api/auth/session')).status).toBe(200)

    // replay: the same code in its window, from a new sign-in, is refused
    const again = await passwordStep(email, password)
    const replay = await again.client.json(again.client.post('/api/auth/second-factor', { code: next }, freshIp()))
    expect(replay.status).toBe(401)
    expect((await again.client.get('/api/auth/session')).status).toBe(401)
    // two steps away either way is refused (the last used step is one ahead, so +2 is not a replay)
    for (const offset of [2, -2]) {
      const drifted = await withCodeAt(authenticator, offset, (code) => again.client.json(again.client.post('/api/auth/second-factor', { code }, freshIp())))
      expect(drifted.status).toBe(401)
    }
  })

  it('a pending sign-in lasts five minutes, is spent once, and its cookie is HttpOnly, SameSite=Strict', async () => {
    const { email, password, recoveryCodes, user } = await signedInWithTotp()
    const raw = await t.app.request('http://localhost:3000/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
    const cookie = raw.headers.getSetCookie().find((c) => c.startsWith('veilmail_pending='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).toMatch(/Max-Age=300/)
    expect(raw.headers.getSetCookie().some((c) => c.startsWith('veilmail_session=') && !/Max-Age=0/.test(c))).toBe(false)

    const { client } = await passwordStep(email, password)
    const [row] = await t.db.sql`select expires_at - created_at as ttl from pending_sign_ins where user_id = ${user.id} order by created_at desc limit 1`
    expect(row.ttl).toBe('00:05:00')
    // five minutes on
    await t.db.sql`update pending_sign_ins set expires_at = now() - interval '1 second' where user_id = ${user.id}`
    const late = await client.json(client.post('/api/auth/second-factor', { code: recoveryCodes[0] }, freshIp()))
    expect(late.status).toBe(401)
    expect(late.body.message).toMatch(/expired/)
    // the recovery code was not spent by the refused attempt
    const fresh = await passwordStep(email, password)
    expect((await fresh.client.post('/api/auth/second-factor', { code: recoveryCodes[0] }, freshIp())).status).toBe(200)
    expect((await fresh.client.post('/api/auth/second-factor', { code: recoveryCodes[1] }, freshIp())).status).toBe(401) // spent with the sign-in
  })

  it('a recovery code works once (in any case, with or without its dash), and its use is mailed', async () => {
    const { email, password, recoveryCodes } = await signedInWithTotp()
    const first = await passwordStep(email, password)
    const typed = ` ${recoveryCodes[3].toUpperCase().replace('-', ' ')} `
    expect((await first.client.post('/api/auth/second-factor', { code: typed }, freshIp())).status).toBe(200)
    const second = await passwordStep(email, password)
    expect((await second.client.post('/api/auth/second-factor', { code: recoveryCodes[3] }, freshIp())).status).toBe(401)
    expect((await second.client.post('/api/auth/second-factor', { code: recoveryCodes[4] }, freshIp())).status).toBe(200)
    expect((await second.client.json(second.client.get('/api/account/totp'))).body.recoveryCodesLeft).toBe(8)
    expect((await subjects(email)).filter((s) => s === 'Veilmail: A recovery code was used')).toHaveLength(2)
  })

  it('another account\'s recovery code or TOTP code does not pass', async () => {
    const a = await signedInWithTotp()
    const b = await signedInWithTotp()
    const { client } = await passwordStep(a.email, a.password)
    expect((await client.post('/api/auth/second-factor', { code: b.recoveryCodes[0] }, freshIp())).status).toBe(401)
    const code = b.authenticator.code()
    if (code !== a.authenticator.code()) expect((await client.post('/api/auth/second-factor', { code }, freshIp())).status).toBe(401)
    // and b's code was not spent on a's sign-in
    const bSignIn = await passwordStep(b.email, b.password)
    expect((await bSignIn.client.post('/api/auth/second-factor', { code: b.recoveryCodes[0] }, freshIp())).status).toBe(200)
  })

  it('an older verification link, still unused, leads to the second step too (it is a first factor)', async () => {
    const email = `late-link-${crypto.randomUUID()}@example.com`
    const client = new ApiClient(t.app)
    expect((await client.post('/api/auth/register', { email, password: 'correct horse battery' })).status).toBe(202)
    const first = tokenOf(await latestLink(mailboxOf(t.app)!, email, '/verify-email'))
    expect((await client.post('/api/auth/resend-verification', { email }, freshIp())).status).toBe(200)
    const second = tokenOf(await latestLink(mailboxOf(t.app)!, email, '/verify-email'))
    expect(second).not.toBe(first)
    expect((await client.post('/api/auth/verify-email', { token: second })).status).toBe(200)
    const { authenticator } = await enableTotp(client)
    const late = new ApiClient(t.app)
    const res = await late.json(late.post('/api/auth/verify-email', { token: first }))
    expect(res).toEqual({ status: 200, body: { secondFactor: { required: true, methods: ['totp', 'recovery-code'] } } })
    expect((await late.get('/api/auth/session')).status).toBe(401)
    expect((await late.post('/api/auth/second-factor', { code: authenticator.code(1) }, freshIp())).status).toBe(200)
  })

  it('a password reset by mail leaves the second factor on: the new password leads to the second step', async () => {
    const { email, authenticator, client: owner } = await signedInWithTotp()
    const anon = new ApiClient(t.app)
    expect((await anon.post('/api/auth/forgot-password', { email }, freshIp())).status).toBe(200)
    const token = tokenOf(await latestLink(mailboxOf(t.app)!, email, '/reset-password'))
    expect((await anon.post('/api/auth/reset-password', { token, password: 'a brand new password' }, freshIp())).status).toBe(200)
    expect(anon.cookies.has('veilmail_session')).toBe(false)
    expect((await owner.get('/api/auth/session')).status).toBe(401) // every session ended
    const { client, res } = await passwordStep(email, 'a brand new password')
    expect(res.body.secondFactor).toEqual({ required: true, methods: ['totp', 'recovery-code'] })
    expect((await client.get('/api/auth/session')).status).toBe(401)
    expect((await client.post('/api/auth/second-factor', { code: authenticator.code(1) }, freshIp())).status).toBe(200)
  })
})

describe('code attempts are limited per account and per address, counted before the check', () => {
  let server: ReturnType<typeof serve>
  let base: string
  beforeAll(async () => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise<void>((resolve) => server.once('listening', () => resolve()))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** A pending sign-in's cookie, from the password step over real HTTP. */
  async function pendingCookie(email: string, password: string): Promise<string> {
    const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...freshIp() }, body: JSON.stringify({ email, password }) })
    expect(res.status).toBe(200)
    return res.headers.getSetCookie().find((c) => c.startsWith('veilmail_pending='))!.split(';')[0]
  }
  const wrongCode = (authenticatorCodes: string[]) => {
    for (;;) {
      const code = String(Math.floor(Math.random() * 1e6)).padStart(6, '0')
      if (!authenticatorCodes.includes(code)) return code
    }
  }
  const send = (cookie: string, code: string, ip: Record<string, string>) =>
    fetch(`${base}/api/auth/second-factor`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, ...ip }, body: JSON.stringify({ code }) }).then(async (r) => {
      if (r.status === 429 || r.status === 200) await r.body?.cancel()
      else last = await r.text()
      return r.status
    })
  let last = ''

  it('100 concurrent wrong codes for one account, from 100 addresses: at most the account limit (10) are checked, and then the right code waits too', async () => {
    const { email, password, authenticator } = await signedInWithTotp()
    const cookie = await pendingCookie(email, password)
    const near = [-1, 0, 1].map((o) => authenticator.code(o))
    const statuses = await Promise.all(Array.from({ length: 100 }, () => send(cookie, wrongCode(near), freshIp())))
    const checked = statuses.filter((s) => s === 401).length
    expect(checked).toBeLessThanOrEqual(10)
    expect(checked).toBeGreaterThan(0)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - checked)
    expect(await send(cookie, authenticator.code(), freshIp())).toBe(429)
  })

  it('100 concurrent wrong codes from one address over several accounts: at most the address limit (25) are checked', async () => {
    const accounts = await Promise.all(Array.from({ length: 10 }, () => signedInWithTotp()))
    const cookies = await Promise.all(accounts.map((a) => pendingCookie(a.email, a.password)))
    const ip = freshIp()
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => send(cookies[i % 10], wrongCode([-1, 0, 1].map((o) => accounts[i % 10].authenticator.code(o))), ip)))
    const checked = statuses.filter((s) => s === 401).length
    expect(checked).toBeLessThanOrEqual(25)
    expect(checked).toBeGreaterThan(0)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - checked)
    // another address is not held back for those accounts' owners
    const counts = await t.db.sql`select key, count from rate_limits where action_type = 'second-factor-account' and key = ${accounts[0].user.id}`
    expect(await send(cookies[0], accounts[0].authenticator.code(1), freshIp()), JSON.stringify({ counts, last })).toBe(200)
  })

  it('a right code is given back: an owner who signs in often is never held back', async () => {
    const { email, password, recoveryCodes } = await signedInWithTotp()
    const ip = freshIp()
    for (const code of recoveryCodes) {
      const cookie = await pendingCookie(email, password)
      expect(await send(cookie, code, ip)).toBe(200)
    }
  })
})

describe('turning it off, new recovery codes', () => {
  it('needs the password and a current code; both are checked and counted', async () => {
    const { client, email, password, authenticator } = await signedInWithTotp()
    const off = (body: object) => client.json(client.request('DELETE', '/api/account/totp', body, freshIp()))
    expect((await off({ password: 'wrong password', code: authenticator.code() })).body.errors.password).toEqual(['Wrong password'])
    const wrong = await off({ password, code: authenticator.code() === '123456' ? '654321' : '123456' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.errors.code).toBeDefined()
    expect((await off({ code: authenticator.code(1) })).body.errors.password).toEqual(['Wrong password'])
    expect((await client.json(client.get('/api/account/totp'))).body.enabled).toBe(true)
    const done = await off({ password, code: authenticator.code(1) })
    expect(done.status).toBe(200)
    expect((await client.json(client.get('/api/account/totp'))).body).toMatchObject({ enabled: false, recoveryCodesLeft: 0 })
    expect((await passwordStep(email, password)).res.body.user).toBeDefined()
    expect(await subjects(email)).toContain('Veilmail: Two-factor authentication is off')
  })

  it('regenerating replaces every recovery code', async () => {
    const { client, email, password, recoveryCodes } = await signedInWithTotp()
    const res = await client.json(client.post('/api/account/recovery-codes'))
    expect(res.status).toBe(201)
    expect(res.body.recoveryCodes).toHaveLength(10)
    const old = await passwordStep(email, password)
    expect((await old.client.post('/api/auth/second-factor', { code: recoveryCodes[0] }, freshIp())).status).toBe(401)
    expect((await old.client.post('/api/auth/second-factor', { code: res.body.recoveryCodes[0] }, freshIp())).status).toBe(200)
    expect(await subjects(email)).toContain('Veilmail: New recovery codes')
    const without = new ApiClient(t.app)
    await without.register()
    expect((await without.json(without.post('/api/account/recovery-codes'))).status).toBe(409)
  })
})

describe('sessions', () => {
  const chrome = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' }
  const firefox = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0' }

  it('lists each session with its browser, system and days, marks this one, and ends one or all others', async () => {
    const a = new ApiClient(t.app)
    const { email, password } = await a.register()
    const b = new ApiClient(t.app)
    expect((await b.post('/api/auth/login', { email, password }, { ...chrome, ...freshIp() })).status).toBe(200)
    const c = new ApiClient(t.app)
    expect((await c.post('/api/auth/login', { email, password }, { ...firefox, ...freshIp() })).status).toBe(200)

    const list = await b.json(b.get('/api/account/sessions'))
    expect(list.status).toBe(200)
    expect(list.body.sessions).toHaveLength(3)
    const today = new Date().toISOString().slice(0, 10)
    const mine = list.body.sessions.find((s: { current: boolean }) => s.current)
    expect(mine).toMatchObject({ browser: 'Chrome', os: 'Linux' })
    expect(list.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1)
    const ff = list.body.sessions.find((s: { browser: string }) => s.browser === 'Firefox')
    expect(ff).toMatchObject({ os: 'Windows', current: false })
    expect(ff.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect([today, new Date(Date.now() - 86400e3).toISOString().slice(0, 10)]).toContain(ff.lastSeenAt)
    expect(Object.keys(ff).sort()).toEqual(['browser', 'createdAt', 'current', 'id', 'lastSeenAt', 'os'])
    // no address is kept with a session
    const columns = await t.db.sql`select column_name from information_schema.columns where table_name = 'sessions'`
    expect(columns.map((r) => r.columnName).sort()).toEqual(['browser', 'created_at', 'expires_at', 'id', 'last_seen_at', 'os', 'token_hash', 'user_id'])

    expect((await b.json(b.delete(`/api/account/sessions/${ff.id}`))).status).toBe(200)
    expect((await c.get('/api/auth/session')).status).toBe(401)
    expect((await b.json(b.delete(`/api/account/sessions/${ff.id}`))).status).toBe(404)

    const ended = await b.json(b.post('/api/account/sessions/end-others'))
    expect(ended.body).toEqual({ ended: 1 })
    expect((await a.get('/api/auth/session')).status).toBe(401)
    expect((await b.get('/api/auth/session')).status).toBe(200)
    expect((await b.json(b.get('/api/account/sessions'))).body.sessions).toHaveLength(1)

    // ending this session signs this browser out
    expect((await b.json(b.delete(`/api/account/sessions/${mine.id}`))).status).toBe(200)
    expect((await b.get('/api/auth/session')).status).toBe(401)
  })

  it("another user's session id answers 404 and stays; a malformed id answers 404", async () => {
    const owner = new ApiClient(t.app)
    await owner.register()
    const [theirs] = (await owner.json(owner.get('/api/account/sessions'))).body.sessions
    const other = new ApiClient(t.app)
    await other.register()
    expect((await other.json(other.delete(`/api/account/sessions/${theirs.id}`))).status).toBe(404)
    expect((await other.json(other.delete('/api/account/sessions/not-a-uuid'))).status).toBe(404)
    expect((await other.json(other.delete("/api/account/sessions/' or 1=1 --"))).status).toBe(404)
    expect((await owner.get('/api/auth/session')).status).toBe(200)
    expect((await new ApiClient(t.app).get('/api/account/sessions')).status).toBe(401)
  })
})

describe('changing the password', () => {
  it('needs the current password (counted before the check), ends every other session, keeps this one, and tells the owner', async () => {
    const a = new ApiClient(t.app)
    const { email, password } = await a.register()
    const b = new ApiClient(t.app)
    expect((await b.post('/api/auth/login', { email, password }, freshIp())).status).toBe(200)
    const wrong = await a.json(a.post('/api/account/password', { currentPassword: 'not it', password: 'a new long password' }))
    expect(wrong.status).toBe(400)
    expect(wrong.body.errors.currentPassword).toEqual(['Wrong password'])
    const short = await a.json(a.post('/api/account/password', { currentPassword: password, password: 'short' }))
    expect(short.body.errors.password).toEqual(['Password must be at least 8 characters'])
    const done = await a.json(a.post('/api/account/password', { currentPassword: password, password: 'a new long password' }))
    expect(done.status).toBe(200)
    expect(done.body.endedSessions).toBe(1)
    expect((await a.get('/api/auth/session')).status).toBe(200)
    expect((await b.get('/api/auth/session')).status).toBe(401)
    expect((await passwordStep(email, password)).res.status).toBe(401)
    expect((await passwordStep(email, 'a new long password')).res.status).toBe(200)
    expect(await subjects(email)).toContain('Veilmail: Your password was changed')
  })
})

describe('passkey challenges', () => {
  it('are handed to one address at most webauthn-ip times, counted under concurrency, each bound to the browser that asked', async () => {
    const ip = freshIp()
    const clients = Array.from({ length: 20 }, () => new ApiClient(t.app))
    const statuses = await Promise.all(clients.map((c) => c.post('/api/auth/passkey/options', undefined, ip).then((r) => r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(15)
    const handed = clients.filter((c) => c.cookies.has('veilmail_webauthn'))
    expect(handed).toHaveLength(5)
    expect(new Set(handed.map((c) => c.cookies.get('veilmail_webauthn'))).size).toBe(5)
    const [row] = await t.db.sql`select count(*)::int as n from webauthn_challenges where purpose = 'sign-in'`
    expect(row.n).toBeGreaterThanOrEqual(5)
  })
})

describe('every route of account protection', () => {
  it('refuses another Origin (403) on each state-changing route, and answers 401 without a session', async () => {
    const client = new ApiClient(t.app)
    await client.register()
    const [session] = (await client.json(client.get('/api/account/sessions'))).body.sessions
    const evil = { origin: 'https://evil.example' }
    const routes: [string, string, object?][] = [
      ['POST', '/api/account/totp'],
      ['POST', '/api/account/totp/confirm', { code: '123456' }],
      ['DELETE', '/api/account/totp', { password: 'x', code: '123456' }],
      ['POST', '/api/account/recovery-codes'],
      ['POST', '/api/auth/second-factor', { code: '123456' }],
      ['POST', '/api/account/sessions/end-others'],
      ['DELETE', `/api/account/sessions/${session.id}`],
      ['POST', '/api/account/password', { currentPassword: 'correct horse battery', password: 'another long password' }],
      ['POST', '/api/account/totp/passkey-options'],
      ['POST', '/api/account/passkeys/options'],
      ['POST', '/api/account/passkeys', { name: 'x', response: {} }],
      ['PATCH', `/api/account/passkeys/${crypto.randomUUID()}`, { name: 'x' }],
      ['DELETE', `/api/account/passkeys/${crypto.randomUUID()}`],
    ]
    for (const [method, path, body] of routes) {
      expect((await client.request(method, path, body, evil)).status, `${method} ${path}`).toBe(403)
      const anon = new ApiClient(t.app)
      expect((await anon.request(method, path, body)).status, `${method} ${path} signed out`).toBe(401)
    }
    // the sign-in's own passkey routes need no session, and refuse another Origin too
    for (const path of ['/api/auth/passkey/options', '/api/auth/passkey']) {
      expect((await new ApiClient(t.app).request('POST', path, {}, evil)).status, path).toBe(403)
    }
    expect((await client.get('/api/auth/session')).status).toBe(200)
    expect((await client.json(client.get('/api/account/totp'))).body.enabled).toBe(false)
  })
})
