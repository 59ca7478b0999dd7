// Issue 11 item 5b: a forward target must confirm (a one-click link mailed to it through the
// outgoing queue) before mail is forwarded there. Until then forwards are held, shown on the
// dashboard, and leave the moment the link is followed; after the hold period they fail.
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { tokenOf } from '../../scripts/testing/mailbox.ts'
import { housekeeping } from './housekeeping.ts'

let env: MailEnv

beforeAll(async () => {
  env = await createMailEnv({ env: { RATE_LIMITS: 'confirm-user=3/3600' } })
}, 60_000)
afterAll(() => env.close())

async function owner() {
  const api = new ApiClient(env.app())
  const registered = await api.register(`owner-${crypto.randomUUID().slice(0, 8)}@example.com`)
  return { api, ...registered }
}

async function createAlias(api: ApiClient, userId: string, forwardTo: string) {
  const name = `fwd-${crypto.randomUUID().slice(0, 8)}`
  const res = await api.json(api.post(`/api/aliases/${userId}`, { alias: name, domain: 'veilmail.test', forwardTo }))
  expect(res.status).toBe(201)
  return { id: res.body.alias.id as string, address: `${name}@veilmail.test` }
}

/** The confirmation mail the relay received for `target` (the real mail, with the real link). */
async function confirmationLink(target: string): Promise<string> {
  const mail = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes(target) && m.raw.includes('Subject: Confirm forwarding')))
  expect(mail.from).toBe('no-reply@veilmail.test')
  expect(mail.raw.toString()).toMatch(/DKIM-Signature: [^]*d=veilmail\.test/)
  const text = (await simpleParser(mail.raw)).text ?? ''
  return /http:\/\/localhost:3000\/confirm-target\?token=[A-Za-z0-9_-]{43}/.exec(text)![0]
}

const forwardsTo = (target: string, subject: string) => env.relay.messages.filter((m) => m.to.includes(target) && m.raw.includes(`Subject: ${subject}`))
const deliveryStates = async (target: string) => (await env.db.sql`select status from deliveries where target = ${target} order by created_at`).map((r) => r.status)
/** The dashboard's view of one target (the list also holds the owner's own verified address). */
const targetState = async (api: ApiClient, email: string) =>
  (await api.json(api.get('/api/forward-targets'))).body.targets.find((t: { email: string }) => t.email === email)

describe('forward target confirmation', () => {
  it('holds mail for a new target, shows it pending, and forwards it once the mailed link is followed', async () => {
    const { api, user } = await owner()
    const target = `t-${crypto.randomUUID().slice(0, 8)}@example.org`
    const alias = await createAlias(api, user.id, target.toUpperCase())
    const link = await confirmationLink(target)

    const subject = `held ${crypto.randomUUID()}`
    await env.send({ to: alias.address, subject })
    await expect.poll(() => deliveryStates(target), { timeout: 20_000 }).toEqual(['held'])
    expect(forwardsTo(target, subject)).toHaveLength(0)
    expect(await targetState(api, target)).toEqual({ email: target, confirmed: false, held: 1, bounces: 0, disabled: false, lastBounce: null })

    const confirmed = await new ApiClient(env.app()).json(new ApiClient(env.app()).post('/api/auth/confirm-target', { token: tokenOf(link) }))
    expect(confirmed).toEqual({ status: 200, body: { message: `Mail will now be forwarded to ${target}.`, email: target } })
    await waitFor(env.relay, 'message', () => forwardsTo(target, subject).length === 1)
    // delivered: the spooled message and its deliveries are gone
    await expect.poll(() => deliveryStates(target), { timeout: 20_000 }).toEqual([])
    expect(await targetState(api, target)).toEqual({ email: target, confirmed: true, held: 0, bounces: 0, disabled: false, lastBounce: null })
    // the link is single-use
    expect((await api.post('/api/auth/confirm-target', { token: tokenOf(link) })).status).toBe(400)

    // one confirmation covers every alias of the user: a second alias forwards at once, with no new mail
    const second = await createAlias(api, user.id, target)
    const next = `at once ${crypto.randomUUID()}`
    await env.send({ to: second.address, subject: next })
    await waitFor(env.relay, 'message', () => forwardsTo(target, next).length === 1)
    expect(env.relay.messages.filter((m) => m.to.includes(target) && m.raw.includes('Subject: Confirm forwarding'))).toHaveLength(1)
  })

  it('forwards held mail with the authentication results of its arrival, not of its confirmation', async () => {
    const { api, user } = await owner()
    const target = `auth-${crypto.randomUUID().slice(0, 8)}@example.org`
    const alias = await createAlias(api, user.id, target)
    const link = await confirmationLink(target)
    const sender = `s${crypto.randomUUID().slice(0, 8)}.example`
    // the sender's domain publishes SPF for this client and no DMARC policy: the MX leaves the check to the delivery
    env.resolver.records[`${sender} TXT`] = [['v=spf1 ip4:127.0.0.1 -all']]
    const subject = `held auth ${crypto.randomUUID()}`
    try {
      await env.send({ to: alias.address, subject, envelopeFrom: `news@${sender}`, from: `news@${sender}` })
      await expect.poll(() => deliveryStates(target), { timeout: 20_000 }).toEqual(['held'])
    } finally {
      // days later the domain no longer publishes it
      delete env.resolver.records[`${sender} TXT`]
    }
    await new ApiClient(env.app()).post('/api/auth/confirm-target', { token: tokenOf(link) })
    await waitFor(env.relay, 'message', () => forwardsTo(target, subject).length === 1)
    const [forward] = forwardsTo(target, subject)
    const results = forward.raw.toString('latin1').match(/^Authentication-Results:[^]*?\r\n(?=\S)/im)?.[0] ?? ''
    expect(results).toMatch(new RegExp(`spf=pass[^;]*smtp\\.mailfrom=news@${sender.replace('.', '\\.')}`))
  })

  it("is per user: another user's confirmation of the same address does not cover this one", async () => {
    const a = await owner()
    const b = await owner()
    const target = `shared-${crypto.randomUUID().slice(0, 8)}@example.org`
    await createAlias(a.api, a.user.id, target)
    const link = await confirmationLink(target)
    await a.api.post('/api/auth/confirm-target', { token: tokenOf(link) })
    const aliasB = await createAlias(b.api, b.user.id, target)
    const subject = `not covered ${crypto.randomUUID()}`
    await env.send({ to: aliasB.address, subject })
    await expect.poll(async () => (await targetState(b.api, target))?.held, { timeout: 20_000 }).toBe(1)
    expect(forwardsTo(target, subject)).toHaveLength(0)
    expect(await targetState(b.api, target)).toEqual({ email: target, confirmed: false, held: 1, bounces: 0, disabled: false, lastBounce: null })
  })

  it("counts the owner's own verified address as confirmed, with no confirmation mail", async () => {
    const { api, user, email } = await owner()
    const alias = await createAlias(api, user.id, email)
    const subject = `own ${crypto.randomUUID()}`
    await env.send({ to: alias.address, subject })
    await waitFor(env.relay, 'message', () => forwardsTo(email.toLowerCase(), subject).length === 1)
    expect(await targetState(api, email.toLowerCase())).toEqual({ email: email.toLowerCase(), confirmed: true, held: 0, bounces: 0, disabled: false, lastBounce: null })
    expect(env.relay.messages.filter((m) => m.to.includes(email.toLowerCase()) && m.raw.includes('Subject: Confirm forwarding'))).toHaveLength(0)
  })

  it('resend is rate limited per user (counted before the work, also at once) and only for own, unconfirmed targets', async () => {
    const { api, user } = await owner()
    const target = `resend-${crypto.randomUUID().slice(0, 8)}@example.org`
    await createAlias(api, user.id, target) // the first mail: 1 of 3
    const results = await Promise.all(Array.from({ length: 8 }, () => api.json(api.post('/api/forward-targets/resend', { email: target }))))
    expect(results.filter((r) => r.status === 200)).toHaveLength(2)
    const limited = results.filter((r) => r.status === 429)
    expect(limited).toHaveLength(6)
    expect(limited[0].body).toMatchObject({ rateLimited: true, message: 'Too many confirmation e-mails. Please try again later.' })
    expect((await env.db.sql`select count(*)::int as n from email_jobs where source = 'system' and recipient_email = ${target}`)[0].n).toBe(3)
    // someone else's target, or none: 404
    const stranger = await owner()
    expect((await stranger.api.post('/api/forward-targets/resend', { email: target })).status).toBe(404)
  })

  it('a forward held past the hold period fails for good (counted as failed) and its message is deleted', async () => {
    const { api, user } = await owner()
    const target = `never-${crypto.randomUUID().slice(0, 8)}@example.org`
    const alias = await createAlias(api, user.id, target)
    await env.send({ to: alias.address, subject: `never ${crypto.randomUUID()}` })
    await expect.poll(() => deliveryStates(target), { timeout: 20_000 }).toEqual(['held'])
    const [held] = await env.db.sql`select id, spool_id from deliveries where target = ${target}`
    await env.db.sql`update deliveries set created_at = now() - interval '8 days' where id = ${held.id}`
    await housekeeping(env.db.sql)
    // the message and its deliveries are gone; the alias counts the failure
    expect(await env.db.sql`select id from spool_messages where id = ${held.spoolId}`).toHaveLength(0)
    expect(await env.db.sql`select id from deliveries where id = ${held.id}`).toHaveLength(0)
    const listed = (await api.json(api.get(`/api/aliases/${user.id}`))).body.aliases.find((a: { id: string }) => a.id === alias.id)
    expect(listed.counters).toMatchObject({ forwarded: 0, failed: 1 })
  })
})
