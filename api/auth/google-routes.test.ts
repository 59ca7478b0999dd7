import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { startOidcStandIn, type OidcStandIn, type Profile } from '../../scripts/testing/oidc-stand-in.ts'
import { enableTotp } from '../../scripts/testing/second-factor.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let google: OidcStandIn
let t: TestApp
beforeAll(async () => {
  google = await startOidcStandIn()
  // One proxy in front, so the limit test speaks from an address of its own.
  t = await createTestApp({ ...google.env, TRUST_PROXY: '1', RATE_LIMITS: 'login-ip=10/900' })
})
afterAll(async () => {
  await t.close()
  await google.close()
})

/** Runs the browser's side of the flow: start, consent at the stand-in, come back. */
async function signInWithGoogle(client: ApiClient, profile: Profile, tamper?: (p: { code: string; state: string }) => { code: string; state: string }) {
  const start = await client.get('/api/auth/google')
  expect(start.status).toBe(302)
  const location = start.headers.get('location')!
  expect(location.startsWith(`${google.url}/authorize?`)).toBe(true)
  expect(new URL(location).searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/google/callback')
  let grant = google.authorize(location, profile)
  if (tamper) grant = tamper(grant)
  const back = await client.get(`/api/auth/google/callback?code=${grant.code}&state=${grant.state}`)
  expect(back.status).toBe(302)
  return back.headers.get('location')
}

const sub = () => `g-${crypto.randomUUID()}`

describe('Google sign-in', () => {
  it('creates the user on first sign-in and finds it by googleId afterwards', async () => {
    const id = sub()
    const email = `${id}@gmail.test`
    const client = new ApiClient(t.app)
    expect(await signInWithGoogle(client, { sub: id, email, email_verified: true, given_name: 'Ada', family_name: 'L' })).toBe('/dashboard')
    const { body } = await client.json(client.get('/api/auth/session'))
    expect(body.user).toMatchObject({ googleId: id, email, authMethod: 'google', firstName: 'Ada' })
    const later = new ApiClient(t.app)
    expect(await signInWithGoogle(later, { sub: id, email, email_verified: true })).toBe('/dashboard')
    expect((await later.json(later.get('/api/auth/session'))).body.user.id).toBe(body.user.id)
  })

  it('with a second factor on, Google leads to the second step: no session until the code', async () => {
    const id = sub()
    const email = `${id}@gmail.test`
    const first = new ApiClient(t.app)
    expect(await signInWithGoogle(first, { sub: id, email, email_verified: true })).toBe('/dashboard')
    const { authenticator } = await enableTotp(first)
    const client = new ApiClient(t.app)
    expect(await signInWithGoogle(client, { sub: id, email, email_verified: true })).toBe('/auth/second-factor')
    expect(client.cookies.has('veilmail_session')).toBe(false)
    expect((await client.get('/api/auth/session')).status).toBe(401)
    expect((await client.json(client.get('/api/auth/second-factor'))).body).toEqual({ methods: ['totp', 'recovery-code'] })
    expect((await client.post('/api/auth/second-factor', { code: authenticator.code(1) })).status).toBe(200)
    expect((await client.get('/api/auth/session')).status).toBe(200)
  })

  it('links an existing password account only when Google says the e-mail is verified', async () => {
    const owner = new ApiClient(t.app)
    const { email, user } = await owner.register()
    const attacker = new ApiClient(t.app)
    expect(await signInWithGoogle(attacker, { sub: sub(), email, email_verified: false })).toBe('/auth?error=google')
    expect((await attacker.get('/api/auth/session')).status).toBe(401)

    const linked = new ApiClient(t.app)
    const id = sub()
    expect(await signInWithGoogle(linked, { sub: id, email, email_verified: true })).toBe('/dashboard')
    const { body } = await linked.json(linked.get('/api/auth/session'))
    expect(body.user).toMatchObject({ id: user.id, googleId: id, authMethod: 'email' })
  })

  it('refuses a callback whose state does not match, and a code used twice', async () => {
    const client = new ApiClient(t.app)
    expect(await signInWithGoogle(client, { sub: sub() }, (g) => ({ ...g, state: 'forged' }))).toBe('/auth?error=google')
    expect((await client.get('/api/auth/session')).status).toBe(401)
    const bare = await client.get('/api/auth/google/callback?code=x&state=y')
    expect(bare.headers.get('location')).toBe('/auth?error=google')
  })
})

describe('Google sign-in limits', () => {
  it('lets at most the address limit of 100 concurrent failing callbacks reach the token endpoint, and a good one past the limit does not get in', async () => {
    const from = { 'x-forwarded-for': '198.51.100.30' }
    const started = await Promise.all(Array.from({ length: 101 }, async () => {
      const client = new ApiClient(t.app)
      const location = (await client.get('/api/auth/google')).headers.get('location')!
      return { client, location }
    }))
    const exchanges = google.tokenRequests
    const callbacks = started.slice(0, 100).map(({ client, location }) =>
      client.get(`/api/auth/google/callback?code=not-a-code&state=${new URL(location).searchParams.get('state')}`, from))
    const answers = await Promise.all(callbacks)
    expect(answers.every((r) => r.status === 302 && r.headers.get('location') === '/auth?error=google')).toBe(true)
    expect(google.tokenRequests - exchanges).toBeLessThanOrEqual(10)

    const { client, location } = started[100]
    const grant = google.authorize(location, { sub: sub(), email: `${sub()}@gmail.test`, email_verified: true })
    const late = await client.get(`/api/auth/google/callback?code=${grant.code}&state=${grant.state}`, from)
    expect(late.headers.get('location')).toBe('/auth?error=google')
    expect((await client.get('/api/auth/session')).status).toBe(401)
    expect(google.tokenRequests - exchanges).toBeLessThanOrEqual(10)
  }, 60_000)
})

describe('Google sign-in switched off', () => {
  it('answers a clear page, and the provider list says so', async () => {
    const off = await createTestApp()
    try {
      const res = await off.app.request('/api/auth/google')
      expect(res.status).toBe(503)
      expect(await res.text()).toContain('Google sign-in is not configured')
      expect(await (await off.app.request('/api/auth/providers')).json()).toEqual({ google: false, microsoft: false })
    } finally {
      await off.close()
    }
  })
})
