// Custom domains (issue 29): the records to publish, the DNS check through DNS_SERVERS (the test's
// own DNS stand-in) with each record ok / missing / wrong and what was found, one owner per
// domain, our own domains refused, removal and re-verification, aliases on an active domain.
import { createPublicKey } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { startDnsStandIn, type DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import { publishMx, publishRecords, publishTxt } from '../../scripts/testing/domain-dns.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import type { DomainView } from '../../shared/domain-schemas.ts'

let t: TestApp
let dns: DnsStandIn
beforeAll(async () => {
  dns = await startDnsStandIn()
  t = await createTestApp({ DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '2000' })
})
afterAll(async () => {
  await t?.close()
  await dns?.close()
})

async function signedIn() {
  const client = new ApiClient(t.app)
  const { user, email } = await client.register()
  return { client, userId: user.id as string, email }
}

async function addDomain(client: ApiClient, domain: string): Promise<DomainView> {
  const res = await client.json(client.post('/api/domains', { domain }))
  expect(res.status).toBe(201)
  return res.body.domain
}

describe('account deletion', () => {
  it('releases the domains and the username: another account can verify and choose them', async () => {
    const gone = await signedIn()
    const d = await addDomain(gone.client, 'left-behind.example')
    publishRecords(dns, d.records)
    expect((await check(gone.client, d.id)).body.domain.status).toBe('active')
    const username = `gone-${crypto.randomUUID().slice(0, 6)}`
    expect((await gone.client.json(gone.client.put('/api/account/username', { username }))).status).toBe(200)
    expect((await gone.client.json(gone.client.delete('/api/account'))).status).toBe(200)
    expect((await t.db.sql`select 1 from custom_domains where domain = 'left-behind.example'`).length).toBe(0)

    const next = await signedIn()
    const again = await addDomain(next.client, 'left-behind.example')
    publishRecords(dns, again.records)
    expect((await check(next.client, again.id)).body.domain.status).toBe('active')
    expect((await next.client.json(next.client.put('/api/account/username', { username }))).status).toBe(200)
  })
})

describe('domain limit', () => {
  it('counts adds and checks per user (domain-user), 429 with Retry-After past it, under concurrency', async () => {
    const limited = await createTestApp({ DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '2000', RATE_LIMITS: 'domain-user=5/3600' })
    try {
      const client = new ApiClient(limited.app)
      await client.register()
      const added = await client.json(client.post('/api/domains', { domain: 'limit.example' }))
      expect(added.status).toBe(201)
      const answers = await Promise.all(Array.from({ length: 20 }, () => client.post(`/api/domains/${added.body.domain.id}/check`)))
      expect(answers.filter((r) => r.status === 200)).toHaveLength(4)
      const refused = answers.filter((r) => r.status === 429)
      expect(refused).toHaveLength(16)
      expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0)
      expect((await client.json(client.post('/api/domains', { domain: 'limit-two.example' }))).status).toBe(429)
    } finally {
      await limited.close()
    }
  })
})

describe('aliases on a custom domain through every API', () => {
  it('the compatible APIs and the app alias settings offer and accept an active custom domain', async () => {
    const { client, userId } = await signedIn()
    const d = await addDomain(client, 'apis.example')
    const pending = await client.json(client.put('/api/app-alias-settings', { domain: 'apis.example', nameForm: 'words', forwardTo: null }))
    expect(pending.status).toBe(400)
    publishRecords(dns, d.records)
    expect((await check(client, d.id)).body.domain.status).toBe('active')
    const key = (await client.json(client.post('/api/api-keys', { name: 'apps' }))).body.apiKey.key as string
    const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      t.app.request(`http://localhost:3000${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })

    // SimpleLogin: the domain among the suffixes (is_custom) and in the domain settings; a custom alias on it
    const options = await (await call('GET', '/compat/simplelogin/api/v5/alias/options', { Authentication: key })).json()
    const suffix = options.suffixes.find((x: { suffix: string }) => x.suffix === '@apis.example')
    expect(suffix).toMatchObject({ is_custom: true })
    const sl = await call('POST', '/compat/simplelogin/api/v3/alias/custom/new', { Authentication: key }, { alias_prefix: 'sl-shop', signed_suffix: suffix.signed_suffix, mailbox_ids: [] })
    expect([sl.status, (await sl.json()).alias]).toEqual([201, 'sl-shop@apis.example'])
    const slDomains = await (await call('GET', '/compat/simplelogin/api/v2/setting/domains', { Authentication: key })).json()
    expect(slDomains).toContainEqual({ domain: 'apis.example', is_custom: true })

    // addy.io: domain-options and an alias on it
    const addyOptions = await (await call('GET', '/compat/addy/api/v1/domain-options', { Authorization: `Bearer ${key}` })).json()
    expect(addyOptions.data).toContain('apis.example')
    const addy = await call('POST', '/compat/addy/api/v1/aliases', { Authorization: `Bearer ${key}` }, { domain: 'apis.example', format: 'custom', local_part: 'addy-shop' })
    expect([addy.status, (await addy.json()).data.email]).toEqual([201, 'addy-shop@apis.example'])

    // the native API with the key, and the app alias settings
    const native = await call('POST', `/api/aliases/${userId}`, { Authorization: `Bearer ${key}` }, { alias: 'native-shop', domain: 'apis.example', forwardTo: (await client.json(client.get('/api/auth/session'))).body.user.email })
    expect(native.status).toBe(201)
    const settings = await client.json(client.put('/api/app-alias-settings', { domain: 'apis.example', nameForm: 'words', forwardTo: null }))
    expect(settings.status).toBe(200)
    expect((await client.json(client.get('/api/app-alias-settings'))).body.settings).toMatchObject({ domain: 'apis.example', domains: expect.arrayContaining(['apis.example']) })
  })
})

describe('personal subdomain', () => {
  it('is chosen once: alias rules, reserved names, one owner per name', async () => {
    const { client } = await signedIn()
    expect((await client.json(client.get('/api/account/username'))).body).toEqual({ username: null, subdomain: null })
    for (const username of ['a', '-alice', 'alice-', 'al.ice', 'al_ice', 'x'.repeat(33), 'ålice', '', 42]) {
      const res = await client.json(client.put('/api/account/username', { username }))
      expect(res.status, String(username)).toBe(400)
      expect(res.body.errors.username).toBeDefined()
    }
    for (const username of ['admin', 'postmaster', 'www', 'mx']) expect((await client.json(client.put('/api/account/username', { username }))).status).toBe(400)
    const name = `ada-${crypto.randomUUID().slice(0, 6)}`
    const set = await client.json(client.put('/api/account/username', { username: name.toUpperCase() }))
    expect(set.body).toEqual({ username: name, subdomain: `${name}.${t.config.mailDomains[0]}` })
    expect((await client.json(client.put('/api/account/username', { username: `${name}-2` }))).status).toBe(409)
    const other = await signedIn()
    const taken = await other.client.json(other.client.put('/api/account/username', { username: name }))
    expect([taken.status, taken.body.errors.username]).toEqual([409, ['This username is taken. Please choose another one.']])
  })
})

const check = async (client: ApiClient, id: string) => client.json<{ domain: DomainView; message?: string }>(client.post(`/api/domains/${id}/check`))
const byPurpose = (d: DomainView) => Object.fromEntries(d.records.map((r) => [r.purpose, r]))

describe('custom domains', () => {
  it('shows the records to publish: ownership token, MX, SPF, a 2048-bit DKIM key of its own, DMARC', async () => {
    const { client } = await signedIn()
    const d = await addDomain(client, 'Records.Example.')
    expect(d).toMatchObject({ domain: 'records.example', status: 'pending', catchAll: false, defaultTarget: null, checkedAt: null })
    const r = byPurpose(d)
    expect(d.records.map((x) => [x.purpose, x.type, x.name, x.state])).toEqual([
      ['ownership', 'TXT', 'records.example', 'unchecked'],
      ['mx', 'MX', 'records.example', 'unchecked'],
      ['spf', 'TXT', 'records.example', 'unchecked'],
      ['dkim', 'TXT', 'veilmail._domainkey.records.example', 'unchecked'],
      ['dmarc', 'TXT', '_dmarc.records.example', 'unchecked'],
    ])
    expect(r.ownership.value).toMatch(/^veilmail-verification=[0-9a-f]{32}$/)
    expect(r.mx.value).toBe(`10 ${t.config.mxHostname}`)
    expect(r.spf.value).toBe(`v=spf1 include:${t.config.mailDomains[0]} ~all`)
    expect(r.dmarc.value).toMatch(/^v=DMARC1; p=/)
    const p = /p=([A-Za-z0-9+/=]+)$/.exec(r.dkim.value)![1]
    const key = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' })
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048)
    // another domain gets another key and token
    const other = byPurpose(await addDomain(client, 'records-two.example'))
    expect(other.dkim.value).not.toBe(r.dkim.value)
    expect(other.ownership.value).not.toBe(r.ownership.value)
    // the private key is stored sealed only
    const [row] = await t.db.sql`select dkim_private_key_sealed::text as sealed from custom_domains where id = ${d.id}`
    expect(Buffer.from(row.sealed.slice(2), 'hex').toString('latin1')).not.toContain('PRIVATE KEY')
  })

  it('checks each record through DNS_SERVERS: missing, wrong with what was found, ok; ownership makes it active', async () => {
    const { client, userId } = await signedIn()
    const d = await addDomain(client, 'checked.example')
    const r = byPurpose(d)

    let res = await check(client, d.id)
    expect(res.status).toBe(200)
    expect(res.body.domain.status).toBe('pending')
    expect(res.body.domain.records.map((x) => x.state)).toEqual(['missing', 'missing', 'missing', 'missing', 'missing'])
    expect(res.body.domain.checkedAt).not.toBeNull()

    // the user publishes: a stale token, an MX elsewhere, an SPF without us, our DKIM key; no DMARC
    publishTxt(dns, 'checked.example', ['veilmail-verification=0123456789abcdef0123456789abcdef', 'v=spf1 include:_spf.elsewhere.example -all', 'google-site-verification=abc'])
    publishMx(dns, 'checked.example', ['mx.elsewhere.example'])
    publishRecords(dns, d.records, ['dkim'])
    res = await check(client, d.id)
    let seen = byPurpose(res.body.domain)
    expect(res.body.domain.status).toBe('pending')
    expect(seen.ownership).toMatchObject({ state: 'wrong', found: ['veilmail-verification=0123456789abcdef0123456789abcdef'] })
    expect(seen.mx).toMatchObject({ state: 'wrong', found: ['10 mx.elsewhere.example'] })
    expect(seen.spf).toMatchObject({ state: 'wrong', found: ['v=spf1 include:_spf.elsewhere.example -all'] })
    expect(seen.dkim).toMatchObject({ state: 'ok', found: [r.dkim.value] })
    expect(seen.dmarc).toMatchObject({ state: 'missing', found: [] })

    // an alias cannot be made on it while pending
    const pending = await client.json(client.post(`/api/aliases/${userId}`, { alias: 'shop', domain: 'checked.example', forwardTo: 'me@example.com' }))
    expect(pending.status).toBe(400)
    expect(pending.body.errors.domain).toEqual(['This domain is not available'])

    publishRecords(dns, d.records)
    res = await check(client, d.id)
    seen = byPurpose(res.body.domain)
    expect(res.body.domain.status).toBe('active')
    expect(res.body.domain.records.map((x) => x.state)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
    expect(seen.mx.found).toEqual([`10 ${t.config.mxHostname}`])

    // active: aliases are made on it like on our own domains
    const made = await client.json(client.post(`/api/aliases/${userId}`, { alias: 'Shop', domain: 'checked.example', forwardTo: 'me@example.com' }))
    expect(made.status).toBe(201)
    expect(made.body.alias).toMatchObject({ alias: 'Shop', domain: 'checked.example' })
    const listed = await client.json(client.get('/api/domains'))
    expect(listed.body.domains).toEqual([...t.config.mailDomains, 'checked.example'])
    expect(listed.body.customDomains).toEqual([res.body.domain])
    // and an alias cannot forward to it (a loop through our MX)
    const loop = await client.json(client.post(`/api/aliases/${userId}`, { alias: 'loop', domain: t.config.mailDomains[0], forwardTo: 'shop@checked.example' }))
    expect(loop.status).toBe(400)

    // a record removed later is wrong/missing on the next check; the domain stays active
    publishTxt(dns, '_dmarc.checked.example', [])
    res = await check(client, d.id)
    expect(res.body.domain.status).toBe('active')
    expect(byPurpose(res.body.domain).dmarc.state).toBe('missing')
  })

  it('cuts what a hostile DNS answer holds to a bounded size', async () => {
    const { client } = await signedIn()
    const d = await addDomain(client, 'hostile.example')
    publishTxt(dns, 'hostile.example', Array.from({ length: 12 }, (_, i) => `v=spf1 ${'a'.repeat(2000)} ${i}`))
    const res = await check(client, d.id)
    const spf = byPurpose(res.body.domain).spf
    expect(spf.state).toBe('wrong')
    expect(spf.found.length).toBeLessThanOrEqual(10)
    expect(spf.found.every((s) => s.length <= 601)).toBe(true)
  })

  it('refuses our own domains and their subdomains, malformed names, and a name another account owns', async () => {
    const { client } = await signedIn()
    for (const domain of [t.config.mailDomains[0], `alice.${t.config.mailDomains[0]}`, t.config.mailDomains[1].toUpperCase()]) {
      const res = await client.json(client.post('/api/domains', { domain }))
      expect(res.status).toBe(400)
      expect(res.body.errors.domain).toEqual(['This is one of our own domains: it cannot be added.'])
    }
    for (const domain of ['', 'localhost', 'exa mple.com', '-bad.example', 'a..example', 'x'.repeat(64) + '.example', 'ex_ample.com', 42, null]) {
      const res = await client.json(client.post('/api/domains', { domain }))
      expect(res.status, String(domain)).toBe(400)
      expect(res.body.errors.domain).toBeDefined()
    }
    expect((await client.json(client.post('/api/domains', {}))).status).toBe(400)

    // two accounts may claim a name; the one that publishes its token owns it
    const owner = await signedIn()
    const rival = await signedIn()
    const mine = await addDomain(owner.client, 'owned.example')
    const theirs = await addDomain(rival.client, 'owned.example')
    expect((await owner.client.json(owner.client.post('/api/domains', { domain: 'owned.example' }))).status).toBe(409)
    publishRecords(dns, mine.records, ['ownership'])
    expect((await check(owner.client, mine.id)).body.domain.status).toBe('active')
    // the rival cannot add it again, and publishing its own token too does not take it over
    const again = await rival.client.json(rival.client.post('/api/domains', { domain: 'owned.example' }))
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('This domain is in use by another account.')
    publishTxt(dns, 'owned.example', [byPurpose(mine).ownership.value, byPurpose(theirs).ownership.value])
    const takeover = await check(rival.client, theirs.id)
    expect(takeover.status).toBe(409)
    const [row] = await t.db.sql`select status from custom_domains where id = ${theirs.id}`
    expect(row.status).toBe('pending')
    // nor make aliases on it
    const alias = await rival.client.json(rival.client.post(`/api/aliases/${rival.userId}`, { alias: 'steal', domain: 'owned.example', forwardTo: 'me@example.com' }))
    expect(alias.status).toBe(400)
  })

  it('answers 404 for another user\'s domain and a malformed id', async () => {
    const owner = await signedIn()
    const other = await signedIn()
    const d = await addDomain(owner.client, 'private.example')
    expect((await other.client.json(other.client.post(`/api/domains/${d.id}/check`))).status).toBe(404)
    expect((await other.client.json(other.client.patch(`/api/domains/${d.id}`, { catchAll: true }))).status).toBe(404)
    expect((await other.client.json(other.client.delete(`/api/domains/${d.id}`))).status).toBe(404)
    expect((await other.client.json(other.client.get('/api/domains'))).body.customDomains).toEqual([])
    expect((await owner.client.json(owner.client.post('/api/domains/not-a-uuid/check'))).status).toBe(404)
    expect((await owner.client.json(owner.client.delete("/api/domains/1' or '1'='1"))).status).toBe(404)
    // and from another origin, with the owner's cookie: 403
    const cross = await owner.client.post(`/api/domains/${d.id}/check`, undefined, { origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    // signed out: our domains only
    expect((await new ApiClient(t.app).json(new ApiClient(t.app).get('/api/domains'))).body).toEqual({ domains: t.config.mailDomains })
  })

  it('sets catch-all and the default target; removing the domain needs re-verification to add it again', async () => {
    const { client, userId, email } = await signedIn()
    const d = await addDomain(client, 'removed.example')
    let res = await client.json(client.patch(`/api/domains/${d.id}`, { catchAll: true, defaultTarget: email.toUpperCase() }))
    expect(res.body.domain).toMatchObject({ catchAll: true, defaultTarget: email.toLowerCase() })
    expect((await client.json(client.patch(`/api/domains/${d.id}`, { defaultTarget: 'not an address' }))).status).toBe(400)
    // only a confirmed address: anything else would let the catch-all mail strangers
    const stranger = await client.json(client.patch(`/api/domains/${d.id}`, { defaultTarget: 'stranger@example.org' }))
    expect([stranger.status, stranger.body.errors.defaultTarget]).toEqual([400, ['Choose one of your confirmed forwarding addresses']])
    expect((await client.json(client.patch(`/api/domains/${d.id}`, { defaultTarget: null }))).body.domain.defaultTarget).toBeNull()
    expect((await client.json(client.patch(`/api/domains/${d.id}`, {}))).status).toBe(400)
    publishRecords(dns, d.records)
    expect((await check(client, d.id)).body.domain.status).toBe('active')
    expect((await client.json(client.post(`/api/aliases/${userId}`, { alias: 'kept', domain: 'removed.example', forwardTo: 'me@example.com' }))).status).toBe(201)

    res = await client.json(client.delete(`/api/domains/${d.id}`))
    expect(res.status).toBe(200)
    expect((await client.json(client.get('/api/domains'))).body).toEqual({ domains: t.config.mailDomains, customDomains: [] })
    expect((await client.json(client.post(`/api/aliases/${userId}`, { alias: 'after', domain: 'removed.example', forwardTo: 'me@example.com' }))).status).toBe(400)
    // added again: pending with a new token, until the new one is seen
    const back = await addDomain(client, 'removed.example')
    expect(back.status).toBe('pending')
    expect(byPurpose(back).ownership.value).not.toBe(byPurpose(d).ownership.value)
    res = await check(client, back.id)
    expect(res.body.domain.status).toBe('pending')
    expect(byPurpose(res.body.domain).ownership.state).toBe('wrong')
  })
})
