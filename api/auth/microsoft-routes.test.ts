// Connecting Outlook through Microsoft sign-in, against a local stand-in of Microsoft's endpoints:
// the authorization request, the account stored with sealed tokens, and every hostile return.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getProviderForSync } from '../../db/email-providers.ts'
import { onLogEvent } from '../../lib/log.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { addImapAccount, connectOutlook } from '../../scripts/testing/mailbox-accounts.ts'
import { startMicrosoftStandIn, STAND_IN_CLIENT, type MicrosoftStandIn } from '../../scripts/testing/microsoft-stand-in.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { openCredentials } from '../../lib/mailbox-credentials.ts'

let microsoft: MicrosoftStandIn
let t: TestApp
const logged: string[] = []
onLogEvent((level, event, fields) => logged.push(JSON.stringify({ level, event, ...fields })))

beforeAll(async () => {
  microsoft = await startMicrosoftStandIn()
  t = await createTestApp({ ...microsoft.env, ALLOW_PRIVATE_NETWORKS: 'true' })
})
afterAll(async () => {
  await t?.close()
  await microsoft?.close()
})

const mailbox = () => `outlook-${crypto.randomUUID()}@outlook.test`

async function signedInUser() {
  const user = new ApiClient(t.app)
  await user.register()
  return user
}

const providers = async (user: ApiClient) => (await user.json(user.get('/api/email-providers'))).body.providers as any[]

describe('connecting Outlook', () => {
  it('asks Microsoft for a code with PKCE and the IMAP and offline scopes, then stores the mailbox with its tokens sealed and queues its first sync', async () => {
    const user = await signedInUser()
    const start = await user.get('/api/auth/microsoft')
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get('location')!)
    expect(`${authorize.origin}${authorize.pathname}`).toBe(microsoft.env.MICROSOFT_AUTH_URL)
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code', client_id: STAND_IN_CLIENT.id, redirect_uri: 'http://localhost:3000/api/auth/microsoft/callback', code_challenge_method: 'S256',
    })
    expect(authorize.searchParams.get('scope')!.split(' ').sort()).toEqual(['email', 'https://outlook.office.com/IMAP.AccessAsUser.All', 'https://outlook.office.com/SMTP.Send', 'offline_access', 'openid'])
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    const cookies = start.headers.getSetCookie()
    expect(cookies).toHaveLength(2)
    for (const cookie of cookies) expect(cookie).toMatch(/HttpOnly.*Path=\/api\/auth\/microsoft|Path=\/api\/auth\/microsoft.*HttpOnly/)

    const email = mailbox()
    const issuedBefore = microsoft.issued.length
    const back = await connectOutlook(user, microsoft, { email })
    expect(back.pathname).toBe('/inbox/settings')
    expect(back.searchParams.get('status')).toBe('success')
    const providerId = back.searchParams.get('providerId')!
    const jobId = back.searchParams.get('jobId')!
    expect(user.cookies.has('veilmail_microsoft_state')).toBe(false)

    const [provider] = await providers(user)
    expect(provider).toMatchObject({ id: providerId, provider: 'outlook', email, host: 'outlook.office365.com', port: 993, secure: true, state: 'connecting', lastError: null })
    const job = (await user.json(user.get(`/api/email-providers/${providerId}/sync-jobs/${jobId}`))).body
    expect(job).toMatchObject({ jobId, providerId, status: 'queued' })

    const [accessToken, refreshToken] = microsoft.issued.slice(issuedBefore)
    const row = (await getProviderForSync(t.db.sql, providerId))!
    expect(openCredentials(t.config, row)).toMatchObject({ email, tokenType: 'oauth2', accessToken, refreshToken, host: 'outlook.office365.com', port: 993, secure: true })
    expect(row.credentials.includes(accessToken)).toBe(false)
    expect(row.credentials.includes(refreshToken)).toBe(false)
    const seen = [back.toString(), JSON.stringify(provider), JSON.stringify(job), ...logged].join('\n')
    expect(seen).not.toContain(accessToken)
    expect(seen).not.toContain(refreshToken)
  })

  it('refuses a state it did not hand out, a missing or replayed one, a code from another flow, a callback under another session, and a foreign ID token', async () => {
    const user = await signedInUser()
    const exchanges = () => microsoft.grants.authorization_code
    let before = exchanges()

    // a forged state never reaches the token endpoint
    const forged = await connectOutlook(user, microsoft, { email: mailbox() }, (q) => q.set('state', 'forged'))
    expect(Object.fromEntries(forged.searchParams)).toEqual({ status: 'error', reason: 'state' })
    // a return nobody started here (no cookies), and one without a state
    expect((await user.get('/api/auth/microsoft/callback?code=x&state=y')).headers.get('location')).toBe('/inbox/settings?status=error&reason=state')
    const noState = await connectOutlook(user, microsoft, { email: mailbox() }, (q) => q.delete('state'))
    expect(noState.searchParams.get('reason')).toBe('state')
    expect(exchanges()).toBe(before)

    // code injection: the attacker's code returned with the victim's own state fails PKCE at the token endpoint
    const attacker = await signedInUser()
    const attackerGrant = microsoft.authorize((await attacker.get('/api/auth/microsoft')).headers.get('location')!, { email: mailbox() })
    const injected = await connectOutlook(user, microsoft, { email: mailbox() }, (q) => q.set('code', attackerGrant.code))
    expect(Object.fromEntries(injected.searchParams)).toEqual({ status: 'error', reason: 'exchange' })
    expect(exchanges()).toBe(before + 1)
    before = exchanges()

    // a flow started by one user and finished in another user's session (login CSRF)
    const victim = await signedInUser()
    const started = await user.get('/api/auth/microsoft')
    for (const name of ['veilmail_microsoft_state', 'veilmail_microsoft_verifier']) victim.cookies.set(name, user.cookies.get(name)!)
    const grant = microsoft.authorize(started.headers.get('location')!, { email: mailbox() })
    const crossed = await victim.get(`/api/auth/microsoft/callback?code=${grant.code}&state=${grant.state}`)
    expect(crossed.headers.get('location')).toBe('/inbox/settings?status=error&reason=state')
    expect(exchanges()).toBe(before)

    // an ID token for another client, one naming no mailbox, one naming a malformed one
    for (const claims of [{ aud: 'another-client' }, { email: undefined, preferred_username: undefined }, { email: 'not an address', preferred_username: 'x' }]) {
      const back = await connectOutlook(user, microsoft, { email: mailbox(), claims })
      expect(Object.fromEntries(back.searchParams)).toEqual({ status: 'error', reason: 'exchange' })
    }
    // the user declined at Microsoft
    const declined = await connectOutlook(user, microsoft, { email: mailbox() }, (q) => { q.delete('code'); q.set('error', 'access_denied') })
    expect(Object.fromEntries(declined.searchParams)).toEqual({ status: 'error', reason: 'denied' })

    expect(await providers(user)).toEqual([])
    expect(await providers(victim)).toEqual([])

    // a code that worked once does not work again
    const email = mailbox()
    const replay = await user.get('/api/auth/microsoft')
    const once = microsoft.authorize(replay.headers.get('location')!, { email })
    const path = `/api/auth/microsoft/callback?code=${once.code}&state=${once.state}`
    expect(new URL((await user.get(path)).headers.get('location')!, 'http://x').searchParams.get('status')).toBe('success')
    expect((await user.get(path)).headers.get('location')).toBe('/inbox/settings?status=error&reason=state')
    expect((await providers(user)).map((p) => p.email)).toEqual([email])
  })

  it('sends the browser nowhere but Microsoft and its own settings page, whatever redirect the request names', async () => {
    const user = await signedInUser()
    const start = await user.get('/api/auth/microsoft?redirect_uri=https://evil.example/cb&redirect=https://evil.example&returnTo=//evil.example')
    const authorize = new URL(start.headers.get('location')!)
    expect(authorize.origin).toBe(microsoft.url)
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/microsoft/callback')
    const grant = microsoft.authorize(authorize.toString(), { email: mailbox() })
    const back = await user.get(`/api/auth/microsoft/callback?code=${grant.code}&state=${grant.state}&redirect=https://evil.example&redirect_uri=//evil.example`)
    expect(back.headers.get('location')).toMatch(/^\/inbox\/settings\?status=success&providerId=[\w-]+&jobId=[\w-]+$/)
  })

  it('sends a visitor who is not signed in to sign in first, and never takes over a mailbox connected with a password', async () => {
    const visitor = new ApiClient(t.app)
    expect((await visitor.get('/api/auth/microsoft')).headers.get('location')).toBe('/auth')
    expect((await visitor.get('/api/auth/microsoft/callback?code=x&state=y')).headers.get('location')).toBe('/auth')

    const user = await signedInUser()
    const email = mailbox()
    await addImapAccount(user, { host: '127.0.0.1', port: 993 }, email, 'app-password')
    const back = await connectOutlook(user, microsoft, { email: email.toUpperCase() })
    expect(Object.fromEntries(back.searchParams)).toEqual({ status: 'error', reason: 'exists' })
    expect((await providers(user)).map((p) => p.provider)).toEqual(['other'])
  })

  it('tells a client posting Outlook credentials to use Microsoft sign-in', async () => {
    const user = await signedInUser()
    const encryptedCredentials = Buffer.from(JSON.stringify({ email: 'a@outlook.test', accessToken: 'x', refreshToken: 'y', tokenType: 'oauth2' })).toString('base64')
    const res = await user.json(user.post('/api/email-providers', { provider: 'outlook', email: 'a@outlook.test', encryptedCredentials }))
    expect(res).toEqual({ status: 400, body: { message: 'Outlook accounts are connected with Microsoft sign-in: open /api/auth/microsoft.', errors: { provider: ['Connect Outlook with Microsoft sign-in'] } } })
  })
})

describe('Outlook switched off', () => {
  it('hides the routes (404) and says so in the provider list when MICROSOFT_CLIENT_ID/SECRET are unset', async () => {
    const off = await createTestApp()
    try {
      const user = new ApiClient(off.app)
      await user.register()
      expect((await user.get('/api/auth/microsoft')).status).toBe(404)
      expect((await user.get('/api/auth/microsoft/callback?code=x&state=y')).status).toBe(404)
      expect(await (await off.app.request('/api/auth/providers')).json()).toEqual({ google: false, microsoft: false })
      expect(await (await t.app.request('/api/auth/providers')).json()).toEqual({ google: false, microsoft: true })
      const res = await user.json(user.post('/api/email-providers', { provider: 'outlook', email: 'a@outlook.test', encryptedCredentials: 'e30=' }))
      expect(res.status).toBe(400)
      expect(res.body.message).toContain('MICROSOFT_CLIENT_ID is not set')
    } finally {
      await off.close()
    }
  })
})
