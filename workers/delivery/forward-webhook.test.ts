import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAliasCounters } from '../../db/alias-counters.ts'
import { verifyWebhook } from '../../lib/webhook-signature.ts'
import { sealWebhookSecrets } from '../../scripts/migrate-all.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { Srs } from '../mail/srs.ts'
import { resolveRecipient } from '../mail/mx-recipients.ts'
import { SpoolCodec } from '../mail/spool-codec.ts'
import { createSpooler } from '../mx/mx-spool.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv({ env: { WEBHOOK_ATTACHMENT_MAX_BYTES: '1000' } })
})
afterAll(async () => {
  await env?.close()
})

const requestsFor = (marker: string) => env.webhooks.requests.filter((r) => r.body.includes(marker))
const deliveryOf = async (aliasId: string) => (await env.db.sql<{ status: string; lastError: string | null }[]>`
  select status, last_error from deliveries where alias_id = ${aliasId}`)[0]
const spoolOf = async (aliasId: string) => env.db.sql`select 1 from spool_messages s join deliveries d on d.spool_id = s.id where d.alias_id = ${aliasId}`

describe('webhook delivery', () => {
  it('retries a 500 with the same webhook-id and signature scheme until a 2xx', async () => {
    const alias = await env.createAlias(env.webhooks.url)
    env.webhooks.statuses.push(500, 429)
    await env.send({ to: alias.address, subject: 'hook-retry' })
    await waitFor(env.webhooks, 'request', () => requestsFor('hook-retry').length >= 3)
    const requests = requestsFor('hook-retry')
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1)
    for (const r of requests) expect(verifyWebhook(alias.webhookSecret, r.headers, r.body)).toBe(true)
    expect(verifyWebhook('whsec_' + Buffer.alloc(32).toString('base64'), requests[0].headers, requests[0].body)).toBe(false)
    expect(verifyWebhook(alias.webhookSecret, requests[0].headers, requests[0].body.replace('hook-retry', 'hook-retrx'))).toBe(false)
    await expect.poll(async () => (await deliveryOf(alias.id))?.status ?? 'gone').toBe('gone')
    expect((await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)).toMatchObject({ forwarded: 1, failed: 0 })
  })

  it('signs with the sealed secret, and with a plaintext secret of an older version before and after it is sealed', async () => {
    const alias = await env.createAlias(env.webhooks.url)
    const [row] = await env.db.sql`select webhook_secret, webhook_secret_sealed from aliases where id = ${alias.id}`
    expect(row.webhookSecret).toBeNull()
    expect(row.webhookSecretSealed).not.toBeNull()
    await env.send({ to: alias.address, subject: 'hook-sealed' })
    await waitFor(env.webhooks, 'request', () => requestsFor('hook-sealed').length >= 1)
    expect(verifyWebhook(alias.webhookSecret, requestsFor('hook-sealed')[0].headers, requestsFor('hook-sealed')[0].body)).toBe(true)

    const legacy = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
    await env.db.sql`update aliases set webhook_secret = ${legacy}, webhook_secret_sealed = null where id = ${alias.id}`
    await env.send({ to: alias.address, subject: 'hook-legacy' })
    await waitFor(env.webhooks, 'request', () => requestsFor('hook-legacy').length >= 1)
    expect(verifyWebhook(legacy, requestsFor('hook-legacy')[0].headers, requestsFor('hook-legacy')[0].body)).toBe(true)

    await sealWebhookSecrets(env.db.sql, env.config.secretKey)
    expect((await env.db.sql`select webhook_secret from aliases where id = ${alias.id}`)[0].webhookSecret).toBeNull()
    await env.send({ to: alias.address, subject: 'hook-resealed' })
    await waitFor(env.webhooks, 'request', () => requestsFor('hook-resealed').length >= 1)
    expect(verifyWebhook(legacy, requestsFor('hook-resealed')[0].headers, requestsFor('hook-resealed')[0].body)).toBe(true)
  })

  it('stops at a 410 and records the failure', async () => {
    const alias = await env.createAlias(env.webhooks.url)
    env.webhooks.statuses.push(410)
    await env.send({ to: alias.address, subject: 'hook-gone' })
    await expect.poll(async () => (await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)?.failed ?? 0).toBe(1)
    expect(await spoolOf(alias.id)).toHaveLength(0)
    expect(requestsFor('hook-gone')).toHaveLength(1)
  })

  it('carries small attachments inline and only the metadata of large ones', async () => {
    const alias = await env.createAlias(env.webhooks.url)
    const raw = [
      'From: Ann <ann@outside.example>', `To: ${alias.address}`, 'Cc: Carl <carl@outside.example>', 'Subject: hook-attachments',
      'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b1"', '', '--b1', 'Content-Type: text/plain', '', 'see attached',
      '--b1', 'Content-Type: text/plain; name="small.txt"', 'Content-Disposition: attachment; filename="small.txt"', '', 'tiny',
      '--b1', 'Content-Type: application/octet-stream; name="big.bin"', 'Content-Disposition: attachment; filename="big.bin"',
      'Content-Transfer-Encoding: base64', '', Buffer.alloc(3000, 7).toString('base64').replace(/.{76}/g, '$&\r\n'), '--b1--', '',
    ].join('\r\n')
    await env.send({ to: alias.address, raw })
    const request = await waitFor(env.webhooks, 'request', () => requestsFor('hook-attachments')[0])
    const { data } = JSON.parse(request.body)
    expect(data.cc).toEqual([{ address: 'carl@outside.example', name: 'Carl' }])
    expect(data.text.trim()).toBe('see attached')
    expect(data.attachments).toEqual([
      { filename: 'small.txt', contentType: 'text/plain', size: 4, contentId: null, content: Buffer.from('tiny').toString('base64') },
      { filename: 'big.bin', contentType: 'application/octet-stream', size: 3000, contentId: null, content: null },
    ])
  })

  it('fails a message the parser can never read (a header block over its limit) after one attempt, not nine', async () => {
    const alias = await env.createAlias(env.webhooks.url)
    const [{ now: before }] = await env.db.sql<{ now: Date }[]>`select now()`
    const huge = Array.from({ length: 40 }, () => 'a'.repeat(30_000)).join('\r\n ') // 1.2 MB, mailparser stops at 1 MiB
    const raw = Buffer.from(`From: ann@outside.example\r\nTo: ${alias.address}\r\nX-Huge: ${huge}\r\nSubject: hook-unparseable\r\n\r\nbody\r\n`)
    // The MX refuses such a header part now (552, its 1 MiB cap); one spooled before that cap, or
    // by another way in, still must not be retried: it goes into the spool as the MX writes it.
    await expect(env.send({ to: alias.address, raw })).rejects.toMatchObject({ responseCode: 552 })
    const recipient = await resolveRecipient({ sql: env.db.sql, mailDomains: env.config.mailDomains, srs: new Srs(env.config.secretKey) }, alias.address, 'ann@outside.example')
    const spool = createSpooler({ sql: env.db.sql, boss: env.boss, codec: new SpoolCodec(env.config.secretKey) })
    await spool([recipient], { raw, meta: {
      mailFrom: 'ann@outside.example', remoteAddress: '127.0.0.1', helo: 'client.example', secure: false, receivedAt: new Date().toISOString(),
      auth: { spf: 'none', dkim: 'none', dmarc: 'none', arc: 'none', dkimPassDomains: [], dkimFailDomains: [], headers: '' },
    } })
    await expect.poll(async () => (await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)?.failed ?? 0, { timeout: 30_000 }).toBe(1)
    expect(await spoolOf(alias.id)).toHaveLength(0)
    // The failure is recorded inside the job; pg-boss marks the job completed after it returns.
    const jobs = async () => (await env.db.sql`select state, retry_count from pgboss.job where name = 'forward-webhook' and created_on >= ${before}`)
      .map((j) => [j.state, j.retryCount])
    await expect.poll(jobs).toEqual([['completed', 0]])
    expect(requestsFor('hook-unparseable')).toHaveLength(0)
  })

  it('refuses a private address without ALLOW_PRIVATE_NETWORKS and never connects', async () => {
    const alias = await env.createAlias(env.webhooks.url)
    env.deps.config = { ...env.config, allowPrivateNetworks: false }
    try {
      await env.send({ to: alias.address, subject: 'hook-ssrf' })
      await expect.poll(async () => (await getAliasCounters(env.db.sql, [alias.id])).get(alias.id)?.failed ?? 0).toBe(1)
    } finally {
      env.deps.config = env.config
    }
    expect(requestsFor('hook-ssrf')).toHaveLength(0)
  })
})
