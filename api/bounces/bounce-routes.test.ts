// Bounce routes (issue 30) against the real MX, delivery worker and relay stand-in: the threshold
// setting marks a target sooner, "Send a test mail" (queued, sent by the delivery worker, polled)
// refused keeps the mark with the server's code and reason and taken lifts it (the held forward
// then leaves), the relay away fails it with "try again later", its limit holds under a burst,
// Re-enable, the dashboard's notices and their Dismiss; another user's target, test mail or notice
// answers 404, bad input 400. A test mail leaves from a tagged SRS address, so a delivery report
// the target's server sends back later (through the real MX) stops the target again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { deliveryReport } from '../../scripts/testing/delivery-report-mail.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv()
})
afterAll(async () => {
  await env?.close()
})

async function owner(target: string) {
  const api = new ApiClient(env.app())
  const { user } = await api.register()
  const res = await api.json(api.post(`/api/aliases/${user.id}`, { alias: `r${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target }))
  await api.confirmForwardTarget(target)
  return { api, userId: user.id as string, aliasId: res.body.alias.id as string, address: `${res.body.alias.alias}@veilmail.test` }
}
const targetOf = async (api: ApiClient, email: string) =>
  ((await api.json(api.get('/api/forward-targets'))).body.targets as { email: string; disabled: boolean; bounces: number; held: number; lastBounce: { code: number; reason: string } | null }[]).find((t) => t.email === email)
const isTestMail = (m: { raw: Buffer }) => m.raw.toString().includes('Subject: Veilmail test mail')
const forwardsTo = (target: string) => env.relay.messages.filter((m) => m.to.includes(target) && m.from !== 'no-reply@veilmail.test' && !isTestMail(m))
const testMailsTo = (target: string) => env.relay.messages.filter((m) => m.to.includes(target) && isTestMail(m))

/** An owner whose target (`<prefix>-…@mailbox.example`) one bounce (threshold 1, the relay answering `code`) has stopped. */
async function stoppedTarget(prefix: string, code: number) {
  const target = `${prefix}-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
  const o = await owner(target)
  await o.api.put('/api/bounces', { threshold: 1 })
  env.relay.refuse.set(target, code)
  await env.send({ to: o.address, subject: 'Bounce once' })
  await expect.poll(async () => (await targetOf(o.api, target))?.disabled, { timeout: 30_000 }).toBe(true)
  env.relay.refuse.delete(target)
  return { o, target }
}

/** "Send a test mail": queued (202, its status URL), then its status polled until the delivery worker is done with it. */
async function testMail(api: ApiClient, email: string) {
  const res = await api.post('/api/forward-targets/test', { email })
  const queued = await api.json(res)
  expect(queued.status).toBe(202)
  expect(queued.body).toMatchObject({ jobId: expect.any(String), statusUrl: `/api/forward-targets/test/${queued.body.jobId}` })
  expect(res.headers.get('location')).toBe(queued.body.statusUrl)
  let outcome: { status: string; message: string; code: number | null } | undefined
  await expect.poll(async () => {
    outcome = (await api.json(api.get(queued.body.statusUrl))).body
    return outcome?.status
  }, { timeout: 30_000, interval: 100 }).not.toBe('sending')
  return { jobId: queued.body.jobId as string, ...outcome! }
}

describe('bounce routes', () => {
  it('a threshold of 2 marks after two bounces; a refused test mail keeps the mark, a taken one lifts it and the held forward leaves', async () => {
    const target = `t-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const o = await owner(target)
    expect((await o.api.json(o.api.put('/api/bounces', { threshold: 2 }))).body).toMatchObject({ threshold: 2 })
    env.relay.refuse.set(target, 550)
    for (const i of [1, 2]) await env.send({ to: o.address, subject: `Bounce ${i}` })
    await expect.poll(async () => (await targetOf(o.api, target))?.disabled, { timeout: 30_000 }).toBe(true)
    expect(await targetOf(o.api, target)).toMatchObject({ bounces: 2, lastBounce: { code: 550, reason: `550 5.1.1 <${target}>: mailbox unavailable` } })
    await env.send({ to: o.address, subject: 'Held while stopped' })
    await expect.poll(async () => (await targetOf(o.api, target))?.held, { timeout: 30_000 }).toBe(1)

    const refused = await testMail(o.api, target)
    expect(refused).toMatchObject({ status: 'refused', code: 550, message: `The test mail was not taken: 550 5.1.1 <${target}>: mailbox unavailable` })
    expect(await targetOf(o.api, target)).toMatchObject({ disabled: true, held: 1 })

    env.relay.refuse.delete(target)
    const taken = await testMail(o.api, target)
    expect(taken).toMatchObject({ status: 'taken', code: null, message: `The test mail was taken for ${target}; forwarding to it is on.` })
    const [sent] = testMailsTo(target)
    // the envelope sender is a tagged SRS address on our mail domain, as a forward's; From stays no-reply
    expect(sent.from).toMatch(/^SRS0=[a-z2-7]{8}=[a-z2-7]{12}=veilmail\.test=no-reply@veilmail\.test$/)
    expect(sent.raw.toString()).toMatch(/^From: .*no-reply@veilmail\.test/m)
    expect(sent.raw.toString()).toMatch(/^DKIM-Signature: [^]*d=veilmail\.test/m)
    expect(await targetOf(o.api, target)).toMatchObject({ disabled: false, bounces: 0 })
    await expect.poll(() => forwardsTo(target).length, { timeout: 30_000 }).toBe(1)
    expect(forwardsTo(target)[0].raw.toString()).toContain('Held while stopped')

    // the relay took it, but the target's server refuses it later: its report to the test mail's
    // address, through the MX, naming another address first (ignored), stops the target again
    await env.send({ envelopeFrom: '', to: sent.from, raw: deliveryReport(sent.from, `other-${target}`) })
    await env.send({ envelopeFrom: '', to: sent.from, raw: deliveryReport(sent.from, target, '5.2.1', 'smtp; 550 5.2.1 account disabled') })
    await expect.poll(async () => (await targetOf(o.api, target))?.disabled, { timeout: 30_000 }).toBe(true)
    expect(await targetOf(o.api, target)).toMatchObject({ bounces: 1, lastBounce: { code: 550, reason: '550 5.2.1 account disabled' } })
    expect((await o.api.json(o.api.get(`/api/forward-targets/test/${taken.jobId}`))).body).toEqual({ status: 'refused', code: 550, message: 'The test mail was not taken: 550 5.2.1 account disabled' })
    // the next forward is held again
    await env.send({ to: o.address, subject: 'Held after the report' })
    await expect.poll(async () => (await targetOf(o.api, target))?.held, { timeout: 30_000 }).toBe(1)
    expect(forwardsTo(target)).toHaveLength(1)
  }, 90_000)

  it('Re-enable lifts the mark and releases the held forwards; notices list and dismiss; others get 404, bad input 400', async () => {
    const { o, target } = await stoppedTarget('e', 554)
    await env.send({ to: o.address, subject: 'Held until re-enabled' })
    await expect.poll(async () => (await targetOf(o.api, target))?.held, { timeout: 30_000 }).toBe(1)

    const other = await owner(`x-${crypto.randomUUID().slice(0, 6)}@mailbox.example`)
    expect((await other.api.post('/api/forward-targets/enable', { email: target })).status).toBe(404)
    expect((await other.api.post('/api/forward-targets/test', { email: target })).status).toBe(404)
    const mine = await testMail(o.api, target)
    expect((await other.api.get(`/api/forward-targets/test/${mine.jobId}`)).status).toBe(404)
    // an e-mail job of the owner that is not a test mail is none either
    const [confirmation] = await env.db.sql`select id from email_jobs where user_id = ${o.userId} and purpose is null limit 1`
    expect((await o.api.get(`/api/forward-targets/test/${confirmation.id}`)).status).toBe(404)
    expect((await o.api.get('/api/forward-targets/test/not-a-uuid')).status).toBe(404)
    for (const bad of [{ email: 'not an address' }, { email: `${target}\r\nRCPT TO:<victim@example.org>` }, {}]) {
      expect((await o.api.post('/api/forward-targets/test', bad)).status).toBe(400)
    }
    for (const threshold of [0, 101, 2.5, '5', null]) expect((await o.api.put('/api/bounces', { threshold })).status).toBe(400)

    expect((await o.api.json(o.api.post('/api/forward-targets/enable', { email: target.toUpperCase() }))).status).toBe(200)
    expect(await targetOf(o.api, target)).toMatchObject({ disabled: false, bounces: 0 })
    await expect.poll(() => forwardsTo(target).length, { timeout: 30_000 }).toBe(1)

    await expect.poll(async () => (await o.api.json(o.api.get('/api/bounces'))).body.notices.length, { timeout: 30_000 }).toBe(1)
    const { notices, threshold } = (await o.api.json(o.api.get('/api/bounces'))).body
    expect(threshold).toBe(1)
    expect(notices[0].entries).toEqual([{ alias: o.address, target, code: 554, reason: `554 5.1.1 <${target}>: mailbox unavailable`, count: 1, disabled: true }])
    expect((await other.api.delete(`/api/bounces/${notices[0].id}`)).status).toBe(404)
    expect((await o.api.delete(`/api/bounces/${notices[0].id}`)).status).toBe(200)
    expect((await o.api.json(o.api.get('/api/bounces'))).body.notices).toEqual([])
  }, 90_000)
})

describe('send a test mail', () => {
  it('fails with "try again later" while the relay is away, and the mark stays', async () => {
    const { o, target } = await stoppedTarget('d', 550)
    await env.relayDown()
    try {
      const away = await testMail(o.api, target)
      expect(away).toEqual({ jobId: away.jobId, status: 'failed', code: null, message: 'The test mail was not taken: The mail could not be handed to the relay now. Please try again later.' })
    } finally {
      await env.relayUp()
    }
    expect(await targetOf(o.api, target)).toMatchObject({ disabled: true })
    expect(testMailsTo(target)).toHaveLength(0)
  }, 60_000)

  it('a burst of test mails to one address gets what the mail-address limit leaves, and no more are sent', async () => {
    const target = `b-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const o = await owner(target)
    const { limit } = env.config.rateLimits['mail-address']
    // the confirmation mail counted against the same address
    const [{ count: used }] = await env.db.sql`select count from rate_limits where action_type = 'mail-address' and key = ${target}`
    const answers = await Promise.all(Array.from({ length: limit + 5 }, () => o.api.post('/api/forward-targets/test', { email: target })))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 202)).toHaveLength(limit - used)
    expect(statuses.filter((s) => s === 429)).toHaveLength(limit + 5 - (limit - used))
    const [{ n }] = await env.db.sql`select count(*)::int as n from email_jobs where purpose = 'target-test' and recipient_email = ${target}`
    expect(n).toBe(limit - used)
    await expect.poll(() => testMailsTo(target).length, { timeout: 30_000 }).toBe(limit - used)
    await expect.poll(async () => (await env.db.sql`select status from email_jobs where purpose = 'target-test' and recipient_email = ${target} and status <> 'sent'`).length, { timeout: 30_000 }).toBe(0)
    expect(testMailsTo(target)).toHaveLength(limit - used)
  }, 60_000)
})
