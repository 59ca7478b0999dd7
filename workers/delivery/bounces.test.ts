// Bounces (issue 30), end to end through our MX, the delivery worker and the relay stand-in: a
// target whose server answers 550 is recorded per alias and target with the code and reason, marked
// after five in a row (forwards to it then held, never offered to the relay), and its owner told once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { systemMailsTo } from '../../scripts/testing/mailbox.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { fieldValue, splitMessage } from '../../lib/raw-message.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv({ concurrency: 4 })
})
afterAll(async () => {
  await env?.close()
})

const NOTICE = 'Veilmail: forwarded mail was refused'

async function ownerWithAlias(target: string) {
  const api = new ApiClient(env.app())
  const { email, user } = await api.register()
  const res = await api.json(api.post(`/api/aliases/${user.id}`, { alias: `b${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target }))
  expect(res.status).toBe(201)
  await api.confirmForwardTarget(target)
  return { api, email, userId: user.id as string, aliasId: res.body.alias.id as string, address: `${res.body.alias.alias}@veilmail.test` }
}

const bounced = (aliasId: string) => env.db.sql<{ target: string; code: number | null; reason: string }[]>`
  select target, code, reason from undelivered_messages where alias_id = ${aliasId} order by created_at`
const targetState = async (userId: string, email: string) =>
  (await env.db.sql<{ consecutive: number; disabledAt: Date | null; lastCode: number; lastReason: string }[]>`
    select consecutive, disabled_at, last_code, last_reason from target_bounces where user_id = ${userId} and email = ${email}`)[0]
const deliveriesOf = (aliasId: string, status: string) => env.db.sql`select id from deliveries where alias_id = ${aliasId} and status = ${status}`
/** forwards the relay took for `target` (its confirmation link, from no-reply, is not one) */
const relayedTo = (target: string) => env.relay.messages.filter((m) => m.to.includes(target) && m.from !== 'no-reply@veilmail.test').length

describe('bounces', () => {
  it('Bounce: a relay answering 550 for a target, five times → target marked, user notified once', async () => {
    const target = `gone-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const owner = await ownerWithAlias(target)
    env.relay.refuse.set(target, 550)
    // five at once: bounces of one target in concurrent forwards each count
    await Promise.all([1, 2, 3, 4, 5].map((i) => env.send({ to: owner.address, subject: `Invoice ${i}`, text: `secret body ${i}` })))
    await expect.poll(async () => (await bounced(owner.aliasId)).length, { timeout: 30_000 }).toBe(5)
    for (const row of await bounced(owner.aliasId)) {
      expect(row).toEqual({ target, code: 550, reason: `550 5.1.1 <${target}>: mailbox unavailable` })
    }
    await expect.poll(() => targetState(owner.userId, target)).toMatchObject({ consecutive: 5, disabledAt: expect.any(Date), lastCode: 550 })
    expect((await targetState(owner.userId, target)).lastReason).not.toContain('secret body')

    // marked: the next forward is held, never offered to the relay
    env.relay.refuse.delete(target)
    await env.send({ to: owner.address, subject: 'After the mark', text: 'held' })
    await expect.poll(async () => (await deliveriesOf(owner.aliasId, 'held')).length, { timeout: 30_000 }).toBe(1)
    expect(relayedTo(target)).toBe(0)
    expect(await bounced(owner.aliasId)).toHaveLength(5)

    // told once: one mail to the account's address with alias, target, code and reason, and one dashboard notice
    await expect.poll(async () => (await systemMailsTo(env.mailbox, owner.email)).filter((m) => m.subject === NOTICE).length, { timeout: 30_000 }).toBe(1)
    const [mail] = (await systemMailsTo(env.mailbox, owner.email)).filter((m) => m.subject === NOTICE)
    expect(mail.text).toContain(`${owner.address} → ${target}: 550 5.1.1 <${target}>: mailbox unavailable`)
    expect(mail.text).not.toContain('secret body')
    const notices = await env.db.sql`select entries from bounce_notices where user_id = ${owner.userId}`
    expect(notices).toHaveLength(1)
    // bounces after the notice wait for the next one, a day after it, not sooner
    const [settings] = await env.db.sql<{ pendingSince: Date | null; notifiedAt: Date }[]>`select pending_since, notified_at from bounce_settings where user_id = ${owner.userId}`
    const waiting = await env.db.sql<{ startAfter: Date }[]>`
      select start_after from pgboss.job where name = 'bounce-notice' and data->>'userId' = ${owner.userId} and state = 'created'`
    if (settings.pendingSince) {
      expect(waiting).toHaveLength(1)
      expect(waiting[0].startAfter.getTime() - settings.notifiedAt.getTime()).toBeGreaterThanOrEqual(86_400_000 - 1000)
    } else {
      expect(waiting).toHaveLength(0)
    }
  }, 90_000)

  it('a forward the target takes between bounces clears the count: bounces must be in a row', async () => {
    const target = `flaky-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const owner = await ownerWithAlias(target)
    const bounceTimes = async (n: number, already: number) => {
      env.relay.refuse.set(target, 550)
      for (let i = 0; i < n; i++) await env.send({ to: owner.address, subject: `Bounce ${i}` })
      await expect.poll(async () => (await bounced(owner.aliasId)).length, { timeout: 30_000 }).toBe(already + n)
      env.relay.refuse.delete(target)
    }
    await bounceTimes(4, 0)
    expect(await targetState(owner.userId, target)).toMatchObject({ consecutive: 4, disabledAt: null })
    await env.send({ to: owner.address, subject: 'Gets through' })
    await expect.poll(() => relayedTo(target), { timeout: 30_000 }).toBe(1)
    await expect.poll(async () => (await targetState(owner.userId, target)).consecutive).toBe(0)
    await bounceTimes(4, 4)
    expect(await targetState(owner.userId, target)).toMatchObject({ consecutive: 4, disabledAt: null })
  }, 90_000)

  it('a reply through a reverse alias that the contact\'s server refuses comes back to the owner as a readable notice, at once', async () => {
    const mailbox = `me-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const alias = await env.createAlias(mailbox)
    const [owner] = await env.db.sql<{ email: string }[]>`select email from users where id = ${alias.userId}`
    const contact = `carol-${crypto.randomUUID().slice(0, 6)}@outside.example`
    await env.send({ envelopeFrom: contact, to: alias.address, raw: `From: Carol <${contact}>\r\nTo: ${alias.address}\r\nSubject: Hi\r\nMessage-ID: <hi-${alias.id}@outside.example>\r\n\r\nHello\r\n` })
    const forwarded = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes(mailbox)))
    const reverse = splitMessage(forwarded.raw).headers.filter((h) => h.key === 'reply-to').map(fieldValue)[0]

    env.relay.refuse.set(contact, 550)
    const reply = `From: ${mailbox}\r\nTo: <${reverse}>\r\nSubject: Re: Hi\r\nMessage-ID: <re-${alias.id}@mailbox.example>\r\n\r\nMy private answer\r\n`
    expect((await env.send({ envelopeFrom: mailbox, to: reverse, raw: reply })).accepted).toHaveLength(1)
    const NOTICE_REPLY = 'Veilmail: your reply was not delivered'
    await expect.poll(async () => (await systemMailsTo(env.mailbox, owner.email)).filter((m) => m.subject === NOTICE_REPLY).length, { timeout: 30_000 }).toBe(1)
    const [mail] = (await systemMailsTo(env.mailbox, owner.email)).filter((m) => m.subject === NOTICE_REPLY)
    expect(mail.text).toContain(`Your reply from ${alias.address} to ${contact} was refused by the receiving server for good:\n\n550 5.1.1 <${contact}>: mailbox unavailable`)
    expect(mail.text).not.toContain('My private answer')
    const [notice] = await env.db.sql<{ entries: unknown[] }[]>`select entries from bounce_notices where user_id = ${alias.userId}`
    expect(notice.entries).toEqual([{ alias: alias.address, target: contact, code: 550, reason: `550 5.1.1 <${contact}>: mailbox unavailable`, count: 1, disabled: false, reply: true }])
    // a reply's bounce counts against no forward target
    expect(await env.db.sql`select 1 from target_bounces where user_id = ${alias.userId}`).toHaveLength(0)
    env.relay.refuse.delete(contact)
  }, 90_000)
})
