import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { sealWebhookSecrets } from '../../scripts/migrate-all.ts'
import { openWebhookSecret, type StoredWebhookSecret } from '../../lib/webhook-secret.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'alias-create=25/3600' })
})
afterAll(() => t.close())

async function signedInUser() {
  const client = new ApiClient(t.app)
  const { user } = await client.register()
  return { client, userId: user.id }
}

const unique = () => `news-${crypto.randomUUID().slice(0, 8)}`

describe('creating aliases', () => {
  it('creates an alias and lists it with its counters', async () => {
    const { client, userId } = await signedInUser()
    const name = unique()
    const res = await client.json(client.post(`/api/aliases/${userId}`, { alias: name, domain: 'veil.test', forwardTo: ' me@example.com , https://hooks.example.com/in ', notes: 'shopping' }))
    expect(res.status).toBe(201)
    expect(res.body.alias).toMatchObject({ alias: name, domain: 'veil.test', forwardTo: 'me@example.com,https://hooks.example.com/in', active: true, notes: 'shopping', lastForwardTo: null, counters: { forwarded: 0, replied: 0, dropped: 0, failed: 0 } })
    const list = await client.json(client.get(`/api/aliases/${userId}`))
    expect(list.body.aliases.map((a: { alias: string }) => a.alias)).toEqual([name])
    expect((await client.json(client.get('/api/account-stats'))).body.aliases).toBe(1)
  })

  it('gives a message for each field', async () => {
    const { client, userId } = await signedInUser()
    const post = (body: object) => client.json(client.post(`/api/aliases/${userId}`, body))
    expect((await post({})).body.errors).toEqual({
      alias: ['Alias is required'], domain: ['Domain is required'], forwardTo: ['At least one email address or webhook URL is required'],
    })
    expect((await post({ alias: 'bad alias!', domain: 'veil.test', forwardTo: 'a@b.co' })).body.errors.alias).toEqual(['Invalid alias format'])
    expect((await post({ alias: 'fine', domain: 'veil.test', forwardTo: 'not-an-address, ftp://x' })).body.errors.forwardTo).toEqual(['Please enter valid email addresses and/or webhook URLs (https://example.com/hook) separated by commas'])
    expect((await post({ alias: 'fine', domain: 'veil.test', forwardTo: 'a@b.co', notes: 'x'.repeat(129) })).body.errors.notes).toEqual(['Notes must be 128 characters or less'])
    expect((await post({ alias: unique(), domain: 'gmail.com', forwardTo: 'a@b.co' })).body.message).toBe('This domain is not available')
    expect((await post({ alias: unique(), domain: 'veil.test', forwardTo: 'loop@veilmail.test' })).body.message).toBe('An alias cannot forward to another alias address')
  })

  it('refuses reserved names, also disguised with dots, dashes, underscores or capitals', async () => {
    const { client, userId } = await signedInUser()
    for (const name of ['admin', 'PayPal', 'pay.pal', 'Pay-Pal', 'coin_base', 'postmaster', 'Dr', 'urgent', 'dhl', 'Binance']) {
      const res = await client.json(client.post(`/api/aliases/${userId}`, { alias: name, domain: 'veil.test', forwardTo: 'a@b.co' }))
      expect(`${name} ${res.status} ${res.body.reserved}`).toBe(`${name} 400 true`)
    }
  })

  it('keeps addresses unique across users and forever after deletion', async () => {
    const a = await signedInUser()
    const b = await signedInUser()
    const name = unique()
    const created = await a.client.json(a.client.post(`/api/aliases/${a.userId}`, { alias: name, domain: 'veil.test', forwardTo: 'a@b.co' }))
    const dup = await b.client.json(b.client.post(`/api/aliases/${b.userId}`, { alias: name.toUpperCase(), domain: 'veil.test', forwardTo: 'b@b.co' }))
    expect(dup.status).toBe(409)
    expect(dup.body.message).toMatch(/already taken/)
    expect((await b.client.post(`/api/aliases/${b.userId}`, { alias: name, domain: 'veilmail.test', forwardTo: 'b@b.co' })).status).toBe(201)
    expect((await a.client.json(a.client.delete(`/api/aliases/${created.body.alias.id}`))).body).toEqual({ message: 'Alias deleted' })
    expect((await b.client.post(`/api/aliases/${b.userId}`, { alias: name, domain: 'veil.test', forwardTo: 'b@b.co' })).status).toBe(409)
  })

  it('rate-limits creation per user with the browser shape', async () => {
    const { client, userId } = await signedInUser()
    let last
    for (let i = 0; i < 26; i++) last = await client.json(client.post(`/api/aliases/${userId}`, { alias: unique(), domain: 'veil.test', forwardTo: 'a@b.co' }))
    expect(last!.status).toBe(429)
    expect(last!.body).toMatchObject({ rateLimited: true, message: 'You are creating aliases too quickly.' })
    expect(Date.parse(last!.body.resetTime)).toBeGreaterThan(Date.now())
  })
})

describe('webhook targets (issue 11)', () => {
  it('refuses a webhook URL to a private, loopback or metadata address, or without https, when the alias is saved', async () => {
    const { client, userId } = await signedInUser()
    const hostile: [string, RegExp][] = [
      ['https://127.0.0.1/hook', /private, loopback or reserved/],
      ['https://[::1]/hook', /private, loopback or reserved/],
      ['https://169.254.169.254/latest/meta-data/', /private, loopback or reserved/],
      ['https://10.0.0.5/hook', /private, loopback or reserved/],
      ['https://192.168.1.10/hook', /private, loopback or reserved/],
      ['https://100.64.0.1/hook', /private, loopback or reserved/],
      ['https://0.0.0.0/hook', /private, loopback or reserved/],
      ['https://2130706433/hook', /private, loopback or reserved/], // decimal 127.0.0.1
      ['https://0x7f.0.0.1/hook', /private, loopback or reserved/], // hex
      ['https://0177.0.0.1/hook', /private, loopback or reserved/], // octal
      ['https://0xa9fea9fe/hook', /private, loopback or reserved/], // 169.254.169.254 in one hex number
      ['https://[::ffff:127.0.0.1]/hook', /private, loopback or reserved/],
      ['https://[::ffff:a9fe:a9fe]/hook', /private, loopback or reserved/],
      ['https://localhost/hook', /private, loopback or reserved/], // a name that resolves to loopback
      ['https://good.test@127.0.0.1/hook', /./], // user info: refused by the target rules already
      ['http://hooks.example.com/in', /must start with https:\/\//],
    ]
    for (const [url, message] of hostile) {
      const res = await client.json(client.post(`/api/aliases/${userId}`, { alias: unique(), domain: 'veil.test', forwardTo: `me@example.com, ${url}` }))
      expect(res.status, url).toBe(400)
      expect(res.body.message, url).toMatch(message)
      expect(res.body.errors.forwardTo, url).toEqual([res.body.message])
    }
    expect((await client.json(client.get(`/api/aliases/${userId}`))).body.aliases).toEqual([])

    const created = await client.json(client.post(`/api/aliases/${userId}`, { alias: unique(), domain: 'veil.test', forwardTo: 'https://hooks.example.com/in' }))
    expect(created.status).toBe(201)
    const id = created.body.alias.id
    for (const field of ['forwardTo', 'lastForwardTo']) {
      const res = await client.json(client.put(`/api/aliases/${id}`, { [field]: 'https://[0:0:0:0:0:0:0:1]/hook' }))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message: 'Webhook URLs must not point to a private, loopback or reserved address', errors: { [field]: ['Webhook URLs must not point to a private, loopback or reserved address'] } })
    }
    expect((await client.json(client.get(`/api/aliases/${userId}`))).body.aliases[0].forwardTo).toBe('https://hooks.example.com/in')
  })
})

describe('changing aliases', () => {
  async function withAlias() {
    const user = await signedInUser()
    const res = await user.client.json(user.client.post(`/api/aliases/${user.userId}`, { alias: unique(), domain: 'veil.test', forwardTo: 'me@example.com' }))
    return { ...user, id: res.body.alias.id as string }
  }

  it('pauses with forwardTo null and resumes with the targets it had', async () => {
    const { client, id } = await withAlias()
    const paused = await client.json(client.patch(`/api/aliases/${id}/toggle`, { active: false }))
    expect(paused.body.message).toBe('Alias paused')
    expect(paused.body.alias).toMatchObject({ active: false, forwardTo: 'null', lastForwardTo: 'me@example.com' })
    const resumed = await client.json(client.patch(`/api/aliases/${id}/toggle`, { active: true }))
    expect(resumed.body.message).toBe('Alias activated')
    expect(resumed.body.alias).toMatchObject({ active: true, forwardTo: 'me@example.com' })
  })

  it('updates fields, keeps new targets of a paused alias for its resume, and needs one field', async () => {
    const { client, id } = await withAlias()
    const renamed = unique()
    const res = await client.json(client.put(`/api/aliases/${id}`, { alias: renamed, notes: 'new note' }))
    expect(res.body.alias).toMatchObject({ alias: renamed, notes: 'new note' })
    await client.patch(`/api/aliases/${id}/toggle`, { active: false })
    const edited = await client.json(client.put(`/api/aliases/${id}`, { forwardTo: 'other@example.com' }))
    expect(edited.body.alias).toMatchObject({ active: false, forwardTo: 'null', lastForwardTo: 'other@example.com' })
    expect((await client.json(client.put(`/api/aliases/${id}`, { active: true }))).body.alias).toMatchObject({ active: true, forwardTo: 'other@example.com' })
    const none = await client.json(client.put(`/api/aliases/${id}`, {}))
    expect(none.status).toBe(400)
    expect(none.body.message).toBe('At least one field (alias, forwardTo, active, notes, or lastForwardTo) must be provided')
    expect((await client.json(client.put(`/api/aliases/${id}`, { notes: '' }))).body.alias.notes).toBeNull()
  })

  it('switches encryption of forwarded mail per alias (on by default)', async () => {
    const { client, id, userId } = await withAlias()
    expect((await client.json(client.get(`/api/aliases/${userId}`))).body.aliases[0].encryptForwarded).toBe(true)
    const off = await client.json(client.put(`/api/aliases/${id}`, { encryptForwarded: false }))
    expect(off.status).toBe(200)
    expect(off.body.alias).toMatchObject({ encryptForwarded: false, active: true })
    expect((await t.db.sql`select encrypt_forwarded from aliases where id = ${id}`)[0].encryptForwarded).toBe(false)
    expect((await client.json(client.put(`/api/aliases/${id}`, { encryptForwarded: 'no' }))).status).toBe(400)
    expect((await client.json(client.put(`/api/aliases/${id}`, { encryptForwarded: true }))).body.alias.encryptForwarded).toBe(true)
  })

  it('sets what becomes of spam per alias (tagged by default), refusing anything else, and only on the owner\'s aliases', async () => {
    const { client, id, userId } = await withAlias()
    expect((await client.json(client.get(`/api/aliases/${userId}`))).body.aliases[0].spamHandling).toBe('tag')
    const drop = await client.json(client.put(`/api/aliases/${id}`, { spamHandling: 'drop' }))
    expect(drop.status).toBe(200)
    expect(drop.body.alias).toMatchObject({ spamHandling: 'drop', active: true })
    expect((await t.db.sql`select spam_handling from aliases where id = ${id}`)[0].spamHandling).toBe('drop')
    for (const bad of ['DROP', 'delete', '', null, 1, ['drop'], { $ne: 'tag' }, "drop'; update aliases set active = false --"]) {
      const res = await client.json(client.put(`/api/aliases/${id}`, { spamHandling: bad }))
      expect(res.status).toBe(400)
      expect(res.body.message).toMatch(/spamHandling must be one of tag, tag-subject, drop/)
    }
    expect((await t.db.sql`select spam_handling, active from aliases where id = ${id}`)[0]).toEqual({ spamHandling: 'drop', active: true })
    const other = await signedInUser()
    expect((await other.client.put(`/api/aliases/${id}`, { spamHandling: 'tag-subject' })).status).toBe(404)
    expect((await client.json(client.put(`/api/aliases/${id}`, { spamHandling: 'tag-subject' }))).body.alias.spamHandling).toBe('tag-subject')
  })

  it('lists an alias once with its counters summed over their shards', async () => {
    const { client, id, userId } = await withAlias()
    await t.db.sql`insert into alias_counters (alias_id, shard, forwarded, failed, spam) values (${id}, 0, 2, 1, 4), (${id}, 3, 5, 0, 1)`
    const list = (await client.json(client.get(`/api/aliases/${userId}`))).body.aliases
    expect(list).toHaveLength(1)
    expect(list[0].counters).toEqual({ forwarded: 7, replied: 0, dropped: 0, failed: 1, spam: 5 })
  })

  it('reveals and rotates the webhook signing secret', async () => {
    const { client, id } = await withAlias()
    const first = (await client.json(client.get(`/api/aliases/${id}/webhook-secret`))).body.secret
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/)
    const rotated = (await client.json(client.post(`/api/aliases/${id}/webhook-secret/rotate`))).body.secret
    expect(rotated).not.toBe(first)
    expect((await client.json(client.get(`/api/aliases/${id}/webhook-secret`))).body.secret).toBe(rotated)
  })

  it('stores the webhook secret sealed, bound to its alias, from creation and after rotation', async () => {
    const { client, id } = await withAlias()
    const stored = async (aliasId = id) => (await t.db.sql<StoredWebhookSecret[]>`select id, webhook_secret, webhook_secret_sealed from aliases where id = ${aliasId}`)[0]
    for (const reveal of [() => client.get(`/api/aliases/${id}/webhook-secret`), () => client.post(`/api/aliases/${id}/webhook-secret/rotate`)]) {
      const secret: string = (await client.json(reveal())).body.secret
      const row = await stored()
      expect(row.webhookSecret).toBeNull()
      expect(Buffer.from(row.webhookSecretSealed!).includes(Buffer.from(secret.slice(6), 'base64'))).toBe(false)
      expect(Buffer.from(row.webhookSecretSealed!).toString('latin1')).not.toContain(secret.slice(6, 20))
      expect(openWebhookSecret(t.config.secretKey, row)).toBe(secret)
      const other = await withAlias()
      expect(() => openWebhookSecret(t.config.secretKey, { ...row, id: other.id })).toThrow() // a copy on another alias does not open
      expect(() => openWebhookSecret('another-secret-key-that-is-long-enough-000000', row)).toThrow()
    }
  })

  it('seals a secret an older version stored in plaintext, and it keeps its value', async () => {
    const { client, id } = await withAlias()
    const legacy = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
    await t.db.sql`update aliases set webhook_secret = ${legacy}, webhook_secret_sealed = null where id = ${id}`
    expect((await client.json(client.get(`/api/aliases/${id}/webhook-secret`))).body.secret).toBe(legacy) // read before the sealing step
    await sealWebhookSecrets(t.db.sql, t.config.secretKey)
    expect(await t.db.sql`select id from aliases where webhook_secret is not null`).toHaveLength(0)
    expect((await client.json(client.get(`/api/aliases/${id}/webhook-secret`))).body.secret).toBe(legacy)
    const rotated = (await client.json(client.post(`/api/aliases/${id}/webhook-secret/rotate`))).body.secret
    expect(rotated).not.toBe(legacy)
    expect((await client.json(client.get(`/api/aliases/${id}/webhook-secret`))).body.secret).toBe(rotated)
  })

  it('answers 404 for ids that are not UUIDs', async () => {
    const { client } = await withAlias()
    expect((await client.put('/api/aliases/not-a-uuid', { notes: 'x' })).status).toBe(404)
    expect((await client.get('/api/aliases/123')).status).toBe(404)
  })
})
