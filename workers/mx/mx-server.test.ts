import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { RawSmtp } from '../../scripts/testing/raw-smtp.ts'
import { SpoolCodec } from '../mail/spool-codec.ts'

let env: MailEnv
beforeAll(async () => {
  // No delivery worker: what the MX stored stays in place to be looked at.
  env = await createMailEnv({ worker: false, env: { MAX_MESSAGE_BYTES: '100000' } })
})
afterAll(async () => {
  await env?.close()
})

async function session() {
  const { client, greeting } = await RawSmtp.connect(env.mxPort)
  expect(greeting).toMatch(/^220 mx\.veilmail\.test /)
  await client.command('EHLO client.example')
  return client
}

describe('MX conversation', () => {
  it('advertises STARTTLS and SIZE, and no AUTH', async () => {
    const { client } = await RawSmtp.connect(env.mxPort)
    const ehlo = await client.command('EHLO client.example')
    expect(ehlo).toContain('250-STARTTLS')
    expect(ehlo).toMatch(/250[- ]SIZE 100000/)
    expect(ehlo).not.toMatch(/AUTH/)
    expect(await client.command('AUTH PLAIN AGFsaWNlAHNlY3JldA==')).toMatch(/^5\d\d /)
    expect(await client.command('STARTTLS')).toMatch(/^220 /)
    client.close()
  })

  it('applies the RCPT rules', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const paused = await env.createAlias('null')
    const client = await session()
    expect(await client.command('MAIL FROM:<sender@outside.example>')).toMatch(/^250 /)
    expect(await client.command(`RCPT TO:<${alias.address}>`)).toMatch(/^250 /)
    expect(await client.command(`RCPT TO:<${alias.address.toUpperCase()}>`)).toMatch(/^250 /)
    expect(await client.command('RCPT TO:<nobody@veilmail.test>')).toBe('550 5.1.1 No such mailbox here')
    expect(await client.command('RCPT TO:<someone@gmail.com>')).toBe('550 5.7.1 Relaying denied')
    expect(await client.command(`RCPT TO:<${alias.address}.attacker.example>`)).toBe('550 5.7.1 Relaying denied')
    expect(await client.command(`RCPT TO:<"${alias.address.split('@')[0]}"@veilmail.test>`)).toBe('553 5.1.3 Bad destination mailbox address syntax')
    expect(await client.command('RCPT TO:<=?utf-8?q?x?=@veilmail.test>')).toMatch(/^55\d /)
    expect(await client.command('RCPT TO:<re+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@veilmail.test>')).toBe('550 5.1.1 No such mailbox here')
    expect(await client.command(`RCPT TO:<${paused.address}>`)).toMatch(/^250 /)
    expect(await client.data('From: a@outside.example\r\nSubject: rules\r\n\r\nhello\r\n')).toMatch(/^250 2\.0\.0 Ok: queued as [0-9a-f-]{36}/)
    client.close()
    expect((await getAliasCounters(env.db.sql, [paused.id])).get(paused.id)).toMatchObject({ dropped: 1, forwarded: 0 })
    const deliveries = await env.db.sql`select alias_id, kind, target from deliveries where alias_id in (${alias.id}, ${paused.id})`
    expect(deliveries.map((d) => [d.aliasId, d.kind, d.target])).toEqual([[alias.id, 'email', 'owner@mailbox.example']])
  })

  it('keeps a deleted alias refused, and its address can not be registered again', async () => {
    const alias = await env.createAlias('owner@mailbox.example', { alias: 'deleted-one' })
    await env.db.sql`delete from aliases where id = ${alias.id}`
    await expect(env.send({ to: alias.address })).rejects.toMatchObject({ responseCode: 550 })
    await expect(env.createAlias('other@mailbox.example', { alias: 'Deleted-One' })).rejects.toMatchObject({ code: '23505' })
  })

  it('drops mail to a paused alias unread and counts it', async () => {
    const alias = await env.createAlias('null')
    const sent = await env.send({ to: alias.address, subject: 'while paused' })
    expect(sent.response).toMatch(/^250 /)
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ dropped: 1 })
    expect(await env.db.sql`select 1 from deliveries where alias_id = ${alias.id}`).toHaveLength(0)
  })

  it('stores the message sealed, with one delivery and one job per target, before answering 250', async () => {
    const alias = await env.createAlias(`one@mailbox.example, two@mailbox.example, ${env.webhooks.url}`)
    const sent = await env.send({ to: alias.address, subject: 'Sealed subject line', text: 'secret body text' })
    const spoolId = /queued as ([0-9a-f-]{36})/.exec(sent.response)![1]
    const [row] = await env.db.sql<{ chunks: number; meta: Buffer }[]>`select chunks, meta from spool_messages where id = ${spoolId}`
    const [chunk] = await env.db.sql<{ sealed: Buffer }[]>`select sealed from spool_chunks where spool_id = ${spoolId} and seq = 0`
    expect(row.chunks).toBe(1)
    expect(chunk.sealed.includes('Sealed subject line')).toBe(false)
    expect(row.meta.includes('outside.example')).toBe(false)
    const codec = new SpoolCodec(env.config.secretKey)
    expect(codec.openChunk(spoolId, 0, true, chunk.sealed).toString()).toContain('Sealed subject line')
    // outside.example publishes no DMARC policy: the authentication check is left to the delivery
    const stored = codec.openMeta(spoolId, row.meta)
    expect(stored).toMatchObject({ mailFrom: 'sender@outside.example' })
    expect(stored.auth).toBeUndefined()
    expect(() => codec.openChunk('00000000-0000-4000-8000-000000000000', 0, true, chunk.sealed)).toThrow()
    const deliveries = await env.db.sql<{ id: string; kind: string }[]>`select id, kind from deliveries where spool_id = ${spoolId} order by kind, target`
    expect(deliveries.map((d) => d.kind)).toEqual(['email', 'email', 'webhook'])
    const jobs = await env.db.sql`select name from pgboss.job where data->>'deliveryId' = any(${deliveries.map((d) => d.id)}::text[]) order by name`
    expect(jobs.map((j) => j.name)).toEqual(['forward-email', 'forward-email', 'forward-webhook'])
  })

  it('answers 451 and keeps nothing when the spool transaction fails', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const count = async () => (await env.db.sql`select (select count(*) from spool_messages)::int as spool, (select count(*) from pgboss.job)::int as jobs`)[0]
    const before = await count()
    await env.db.sql`alter table deliveries rename to deliveries_away`
    try {
      await expect(env.send({ to: alias.address, subject: 'db down' })).rejects.toMatchObject({ responseCode: 451 })
    } finally {
      await env.db.sql`alter table deliveries_away rename to deliveries`
    }
    expect(await count()).toEqual(before)
  })

  it('refuses an oversized message with 552 (counted while streaming, and when announced) and an overlong line', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    await expect(env.send({ to: alias.address, text: 'x'.repeat(120_000) })).rejects.toMatchObject({ responseCode: 552 })
    const client = await session()
    expect(await client.command('MAIL FROM:<a@outside.example> SIZE=120000')).toMatch(/^552 /)
    expect(await client.command('MAIL FROM:<a@outside.example>')).toMatch(/^250 /)
    expect(await client.command(`RCPT TO:<${alias.address}>`)).toMatch(/^250 /)
    expect(await client.data('Subject: big\r\n\r\n' + ('y'.repeat(70) + '\r\n').repeat(1600))).toMatch(/^552 5\.3\.4 /)
    expect(await client.command('MAIL FROM:<a@outside.example>')).toMatch(/^250 /)
    expect(await client.command(`RCPT TO:<${alias.address}>`)).toMatch(/^250 /)
    expect(await client.data(`Subject: long line\r\nX-Long: ${'l'.repeat(70_000)}\r\n\r\nx\r\n`)).toMatch(/^554 5\.6\.0 /)
    expect(await client.command('NOOP')).toMatch(/^250 /)
    client.close()
  })

  it('caps recipients at 100 per message', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const names = Array.from({ length: 100 }, (_, i) => `many-${i}`)
    await env.db.sql`insert into aliases (user_id, alias, domain, forward_to)
      select ${alias.userId}, name, 'veilmail.test', 'owner@mailbox.example' from unnest(${names}::text[]) as name`
    const client = await session()
    await client.command('MAIL FROM:<a@outside.example>')
    for (const name of names) expect(await client.command(`RCPT TO:<${name}@veilmail.test>`)).toMatch(/^250 /)
    expect(await client.command(`RCPT TO:<${alias.address}>`)).toMatch(/^452 /)
    client.close()
  })

  it('refuses a message failing DMARC of a p=reject domain, accepts it when aligned SPF passes', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    env.resolver.records['strict.example TXT'] = [['v=spf1 ip4:192.0.2.1 -all']]
    env.resolver.records['_dmarc.strict.example TXT'] = [['v=DMARC1; p=reject']]
    await expect(env.send({ from: 'ceo@strict.example', envelopeFrom: 'ceo@strict.example', to: alias.address }))
      .rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('DMARC') })
    env.resolver.records['strict.example TXT'] = [['v=spf1 ip4:127.0.0.1 -all']]
    const sent = await env.send({ from: 'ceo@strict.example', envelopeFrom: 'ceo@strict.example', to: alias.address })
    expect(sent.response).toMatch(/^250 /)
  })

  it('authenticates in the session only mail whose author domain enforces DMARC, and keeps its results', async () => {
    const alias = await env.createAlias('owner@mailbox.example')
    const codec = new SpoolCodec(env.config.secretKey)
    const storedAuth = async (response: string) => {
      const spoolId = /queued as ([0-9a-f-]{36})/.exec(response)![1]
      const [row] = await env.db.sql<{ meta: Buffer }[]>`select meta from spool_messages where id = ${spoolId}`
      return codec.openMeta(spoolId, row.meta).auth
    }
    env.resolver.records['careful.example TXT'] = [['v=spf1 ip4:127.0.0.1 -all']]
    env.resolver.records['_dmarc.careful.example TXT'] = [['v=DMARC1; p=quarantine']]
    // inherited from the organizational domain (RFC 7489 §6.6.3): sp= applies to the subdomain
    env.resolver.records['_dmarc.parent.example TXT'] = [['v=DMARC1; p=none; sp=reject']]
    env.resolver.records['_dmarc.relaxed.example TXT'] = [['v=DMARC1; p=none']]
    const quarantine = await env.send({ from: 'ceo@careful.example', envelopeFrom: 'ceo@careful.example', to: alias.address })
    expect(await storedAuth(quarantine.response)).toMatchObject({ spf: 'pass', dmarc: 'pass', headers: expect.stringContaining('Authentication-Results: mx.veilmail.test;') })
    await expect(env.send({ from: 'ceo@mail.parent.example', envelopeFrom: 'ceo@mail.parent.example', to: alias.address }))
      .rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('DMARC') })
    // a message that is all header (RFC 5322 §3.5): decided on the whole of it at the end
    const headerOnly = await env.send({ envelopeFrom: 'ceo@careful.example', to: alias.address, raw: 'From: ceo@careful.example\r\nSubject: no body\r\n' })
    expect(await storedAuth(headerOnly.response)).toMatchObject({ spf: 'pass', dmarc: 'pass' })
    const relaxed = await env.send({ from: 'ceo@relaxed.example', envelopeFrom: 'ceo@relaxed.example', to: alias.address })
    expect(await storedAuth(relaxed.response)).toBeUndefined()
    // two author domains: no single policy to go by, so the check runs in the session
    const twoAuthors = await env.send({ from: 'a@relaxed.example, b@outside.example', envelopeFrom: 'a@relaxed.example', to: alias.address })
    expect(await storedAuth(twoAuthors.response)).toMatchObject({ dmarc: expect.any(String) })
  })
})

describe('webhook secrets', () => {
  it('gives each alias its own secret and rotates it for its owner only', async () => {
    const { getWebhookSecret, rotateWebhookSecret } = await import('../../db/alias-webhook-secrets.ts')
    const a = await env.createAlias('x@mailbox.example')
    const b = await env.createAlias('y@mailbox.example')
    expect(a.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(a.webhookSecret).not.toBe(b.webhookSecret)
    expect(await getWebhookSecret(env.db.sql, env.config.secretKey, a.id, b.userId)).toBeUndefined()
    expect(await rotateWebhookSecret(env.db.sql, env.config.secretKey, a.id, b.userId)).toBeUndefined()
    const rotated = await rotateWebhookSecret(env.db.sql, env.config.secretKey, a.id, a.userId)
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(a.webhookSecret)
    expect(await getWebhookSecret(env.db.sql, env.config.secretKey, a.id, a.userId)).toBe(rotated)
  })
})
