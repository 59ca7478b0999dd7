// Sending from an alias through the compose API: real database, real delivery worker, a real
// smtp-server as the relay.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Decrypter, generateX25519Identity, identityToRecipient, armor } from 'age-encryption'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { claimEmailJobs, insertEmailJob } from '../../db/email-jobs.ts'
import { sealEmailJobContent } from '../../lib/email-job-content.ts'
import { startDeliveryWorker } from './delivery-worker.ts'
import { enqueue, queues } from '../../db/queues.ts'

let env: MailEnv
let client: ApiClient
let aliasId: string
let from: string

beforeAll(async () => {
  env = await createMailEnv({ env: { UNDO_SECONDS: '0', EMAIL_RETRY_DELAY_SECONDS: '1' } })
  client = new ApiClient(env.app())
  const { user } = await client.register()
  const name = `sender-${crypto.randomUUID().slice(0, 8)}`
  const res = await client.json(client.post(`/api/aliases/${user.id}`, { alias: name, domain: 'veilmail.test', forwardTo: 'me@example.com' }))
  aliasId = res.body.alias.id
  from = `${name}@veilmail.test`
}, 60_000)
afterAll(() => env.close())

const compose = (over: Record<string, unknown> = {}) =>
  client.json(client.post('/api/email-jobs', { to: 'friend@example.org', subject: 'Hello', body: 'Hi there', fromAliasId: aliasId, useEncryption: false, shareMyPublicKey: false, priority: 0, ...over }))

const status = async (jobId: string) => (await client.json(client.get(`/api/email-jobs/${jobId}/status`))).body
const untilStatus = (jobId: string, wanted: string) => expect.poll(async () => (await status(jobId)).status, { timeout: 20_000, interval: 100 }).toBe(wanted)
const relayed = (subject: string) => waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes(`Subject: ${subject}`)))

describe('compose → delivery', () => {
  it('sends from the alias with a Message-ID on its domain, DKIM-signed, and records it', async () => {
    const subject = `plain ${crypto.randomUUID()}`
    const { status: code, body } = await compose({ subject })
    expect(code).toBe(201)
    expect(body).toEqual({ jobId: expect.any(String), canUndo: false })
    const message = await relayed(subject)
    expect(message.from).toBe(from)
    expect(message.to).toEqual(['friend@example.org'])
    const parsed = await simpleParser(message.raw)
    expect(parsed.from?.text).toBe(from)
    expect(parsed.messageId).toBe(`<${body.jobId}@veilmail.test>`)
    expect(parsed.text?.trim()).toBe('Hi there')
    expect(message.raw.toString()).toMatch(/DKIM-Signature: [^]*d=veilmail\.test/)
    await untilStatus(body.jobId, 'sent')
    expect(await status(body.jobId)).toMatchObject({ success: true, currentRetries: 0, maxRetries: 5, lastError: null, messageId: `<${body.jobId}@veilmail.test>` })
    const [row] = await env.db.sql`select content from email_jobs where id = ${body.jobId}`
    expect(row.content).toBeNull() // nothing of the message is kept once sent
  })

  it('retries a 4xx and sends once the relay accepts; a 5xx fails at once with its reply', async () => {
    env.relay.rejectRcpt = 451
    const subject = `retry ${crypto.randomUUID()}`
    const { body } = await compose({ subject })
    await untilStatus(body.jobId, 'retrying')
    expect((await status(body.jobId)).lastError).toMatch(/451/)
    env.relay.rejectRcpt = undefined
    await relayed(subject)
    await untilStatus(body.jobId, 'sent')
    expect((await status(body.jobId)).currentRetries).toBeGreaterThanOrEqual(1)

    env.relay.rejectRcpt = 550
    const failed = await compose({ subject: `reject ${crypto.randomUUID()}` })
    await untilStatus(failed.body.jobId, 'failed')
    const final = await status(failed.body.jobId)
    expect(final.currentRetries).toBe(0)
    expect(final.lastError).toMatch(/550 5\.1\.1 rejected by test relay/)
    env.relay.rejectRcpt = undefined
  })

  it('encrypts the body to the recipient age key and shares the sender key', async () => {
    const identity = await generateX25519Identity()
    const recipient = await identityToRecipient(identity)
    const mine = await identityToRecipient(await generateX25519Identity())
    const subject = `secret ${crypto.randomUUID()}`
    const { body } = await compose({ subject, body: 'the launch code is 1234', useEncryption: true, recipientPublicKey: recipient, shareMyPublicKey: true, myPublicKeyToShare: mine })
    const message = await relayed(subject)
    expect(message.raw.includes('launch code')).toBe(false)
    const parsed = await simpleParser(message.raw)
    const block = /-----BEGIN AGE ENCRYPTED FILE-----[^]+?-----END AGE ENCRYPTED FILE-----/.exec(parsed.text!)![0]
    const decrypter = new Decrypter()
    decrypter.addIdentity(identity)
    expect(await decrypter.decrypt(armor.decode(block), 'text')).toBe('the launch code is 1234')
    expect(parsed.headers.get('x-age-recipient')).toBe(mine)
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([['age-public-key.txt', 'application/x-age-public-key']])
    if (existsSync('/usr/bin/age')) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'age-'))
      writeFileSync(path.join(dir, 'id.txt'), identity + '\n')
      expect(execFileSync('age', ['-d', '-i', path.join(dir, 'id.txt')], { input: block }).toString()).toBe('the launch code is 1234')
    }
    await untilStatus(body.jobId, 'sent')
  })
})

describe('undo, schedule, priority and refusals', () => {
  it('cancels within the undo window, and refuses once the mail has gone', async () => {
    const slow = await createMailEnv({ worker: true, env: { UNDO_SECONDS: '30' } })
    try {
      const api = new ApiClient(slow.app())
      const { user } = await api.register()
      const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: `undo-${user.id.slice(0, 8)}`, domain: 'veil.test', forwardTo: 'me@example.com' }))).body.alias
      const queued = await api.json(api.post('/api/email-jobs', { to: 'x@example.org', subject: 'oops', body: 'wrong person', fromAliasId: alias.id }))
      expect(queued.body.canUndo).toBe(true)
      expect((await api.json(api.get(`/api/email-jobs/${queued.body.jobId}/status`))).body).toMatchObject({ status: 'pending', canUndo: true })
      expect((await api.json(api.post(`/api/email-jobs/${queued.body.jobId}/cancel`))).body).toEqual({ success: true, message: 'Email sending cancelled' })
      expect((await api.json(api.get(`/api/email-jobs/${queued.body.jobId}/status`))).body.status).toBe('cancelled')
      await slow.db.sql`update pgboss.job set start_after = now() where name = 'send-email'` // let the worker see it now
      await expect.poll(async () => (await slow.db.sql`select state from pgboss.job where name = 'send-email' and data->>'emailJobId' = ${queued.body.jobId}`)[0]?.state, { timeout: 15_000 }).toBe('completed')
      // (the account's own mail, its verification link, did leave)
      expect(slow.relay.messages.filter((m) => m.to.includes('x@example.org'))).toHaveLength(0)
    } finally {
      await slow.close()
    }
    const { body } = await compose({ subject: `gone ${crypto.randomUUID()}` })
    await untilStatus(body.jobId, 'sent')
    expect(await client.json(client.post(`/api/email-jobs/${body.jobId}/cancel`))).toEqual({ status: 409, body: { success: false, message: 'The email may have already been sent.' } })
  })

  it('takes a priority-10 mail before 1,000 priority-0 mails queued ahead of it', async () => {
    const busy = await createMailEnv({ worker: false, env: { UNDO_SECONDS: '0', RATE_LIMITS: 'recipients-hour=2000/3600,recipients-day=2000/86400' } })
    try {
      const api = new ApiClient(busy.app())
      const { user } = await api.register()
      const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: `bulk-${user.id.slice(0, 8)}`, domain: 'veil.test', forwardTo: 'me@example.com' }))).body.alias
      // queued through the API twenty at a time: their order among themselves does not matter, and
      // one by one the 1,000 requests alone took most of the test's time on a loaded machine
      for (let i = 0; i < 1000; i += 20) {
        const posts = Array.from({ length: 20 }, (_, j) => api.json(api.post('/api/email-jobs', { to: 'bulk@example.org', subject: `bulk ${i + j}`, body: 'b', fromAliasId: alias.id, priority: 0 })))
        for (const { status } of await Promise.all(posts)) expect(status).toBe(201)
      }
      const vip = (await api.json(api.post('/api/email-jobs', { to: 'vip@example.org', subject: 'urgent one', body: 'b', fromAliasId: alias.id, priority: 10 }))).body.jobId
      // one send at a time, so the relay's order is the order the queue hands jobs out
      await startDeliveryWorker(busy.boss, busy.deps, { concurrency: 1, queueConcurrency: { 'send-email': 1 }, pollSeconds: 0.5 })
      // (the account's own mail from no-reply, also priority 10, is not one of the bulk mails)
      const composed = () => busy.relay.messages.filter((m) => m.from !== 'no-reply@veilmail.test')
      await waitFor(busy.relay, 'message', () => composed().length >= 3)
      expect(composed().slice(0, 3).map((m) => m.to[0])).toEqual(['vip@example.org', 'bulk@example.org', 'bulk@example.org'])
      const [first] = await busy.db.sql<{ status: string }[]>`select status from email_jobs where id = ${vip}`
      expect(first).toMatchObject({ status: 'sent' })
    } finally {
      await busy.close()
    }
  }, 120_000)

  it('holds a scheduled mail until its time', async () => {
    const subject = `later ${crypto.randomUUID()}`
    const at = new Date(Date.now() + 2500)
    const { body } = await compose({ subject, scheduledAt: at.toISOString() })
    expect((await status(body.jobId)).status).toBe('pending')
    const message = await relayed(subject)
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 50)
    // built when queued, dated when it was due to leave
    expect((await simpleParser(message.raw)).date?.getTime()).toBe(Math.floor(at.getTime() / 1000) * 1000)
  })

  it('still sends a compose job queued by a version that stored its parts instead of the message', async () => {
    const subject = `parts ${crypto.randomUUID()}`
    const [alias] = await env.db.sql<{ userId: string }[]>`select user_id from aliases where id = ${aliasId}`
    const id = crypto.randomUUID()
    await env.db.sql.begin(async (tx) => {
      await insertEmailJob(tx, {
        id, userId: alias.userId, aliasId, source: 'compose', recipientEmail: 'friend@example.org', priority: 0, maxRetries: 5,
        content: sealEmailJobContent(env.config.secretKey, id, { kind: 'compose', subject, body: 'Queued before the upgrade' }),
        useEncryption: false, shareMyPublicKey: false, scheduledAt: new Date(), undoUntil: new Date(),
      })
      await enqueue(tx, env.boss, queues.sendEmail, { emailJobId: id })
    })
    const parsed = await simpleParser((await relayed(subject)).raw)
    expect(parsed.from?.text).toBe(from)
    expect(parsed.messageId).toBe(`<${id}@veilmail.test>`)
    expect(parsed.text?.trim()).toBe('Queued before the upgrade')
    await untilStatus(id, 'sent')
  })

  it('sends a job queued twice once: the second claim of the same row finds it taken', async () => {
    const subject = `twice ${crypto.randomUUID()}`
    const at = new Date(Date.now() + 1500)
    const { body } = await compose({ subject, scheduledAt: at.toISOString() })
    // a duplicate queue entry due at the same moment: both reach the worker in one batch
    const duplicate = await enqueue(env.db.sql, env.boss, queues.sendEmail, { emailJobId: body.jobId }, { startAfter: at })
    await relayed(subject)
    await expect.poll(async () => (await env.boss.getJobById(queues.sendEmail.name, duplicate))?.state, { timeout: 10_000 }).toBe('completed')
    await untilStatus(body.jobId, 'sent')
    expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))).toHaveLength(1)

    const inAnHour = new Date(Date.now() + 3600_000).toISOString() // the worker leaves these alone
    const [a, b] = await Promise.all([compose({ scheduledAt: inAnHour }), compose({ scheduledAt: inAnHour })])
    const claimed = await claimEmailJobs(env.db.sql, [a.body.jobId, a.body.jobId, b.body.jobId])
    expect(claimed.map((row) => row?.id)).toEqual([a.body.jobId, undefined, b.body.jobId])
  })

  it('refuses header injection, another user’s alias, a bad age key, and a paused alias', async () => {
    expect((await compose({ subject: 'Hi\r\nBcc: victim@example.com' })).body).toMatchObject({ message: 'Header values cannot contain line breaks' })
    expect((await compose({ to: 'a@example.org\r\nBcc: b@example.org' })).status).toBe(400)
    expect((await compose({ useEncryption: true, recipientPublicKey: 'age1nope' })).body.errors.recipientPublicKey).toEqual(['Not a valid age public key (age1…)'])
    expect((await compose({ useEncryption: true })).body.errors.recipientPublicKey).toEqual(["Recipient's public key is required when encryption is enabled"])
    const other = new ApiClient(env.app())
    await other.register()
    const stolen = await other.json(other.post('/api/email-jobs', { to: 'x@example.org', subject: 's', body: 'b', fromAliasId: aliasId }))
    expect(stolen.status).toBe(400)
    expect(stolen.body.message).toBe('Please select a sender alias')
    await client.patch(`/api/aliases/${aliasId}/toggle`, { active: false })
    expect((await compose()).body.message).toBe('This alias is paused. Resume it to send from it.')
    await client.patch(`/api/aliases/${aliasId}/toggle`, { active: true })
  })
})
