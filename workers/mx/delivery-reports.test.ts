// Delivery reports (RFC 3464) coming back to a forward's SRS address (issue 30), through our real
// MX, delivery and relay stand-in: a report's permanent failure for the forward's own target is
// recorded like a relay 550 (and five mark the target), also for one alias among more than 1,000
// of its owner forwarding to that target (the tag names its alias's id range); hostile reports (forged address, another
// recipient, a 4.x.x status, not a report, oversized) record nothing and never break the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { deliveryReport } from '../../scripts/testing/delivery-report-mail.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { Srs } from '../mail/srs.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv()
})
afterAll(async () => {
  await env?.close()
})

const report = deliveryReport

async function forwardedOnce(target: string) {
  const api = new ApiClient(env.app())
  const { user } = await api.register()
  const res = await api.json(api.post(`/api/aliases/${user.id}`, { alias: `d${crypto.randomUUID().slice(0, 8)}`, domain: 'veilmail.test', forwardTo: target }))
  await api.confirmForwardTarget(target)
  const aliasId = res.body.alias.id as string
  await env.send({ to: `${res.body.alias.alias}@veilmail.test`, subject: 'Forwarded fine' })
  const forwarded = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes(target) && m.from.startsWith('SRS0=')))
  return { userId: user.id as string, aliasId, srs: forwarded.from }
}

const rows = (aliasId: string) => env.db.sql<{ target: string; code: number; reason: string }[]>`select target, code, reason from undelivered_messages where alias_id = ${aliasId} order by created_at`
const state = async (userId: string, email: string) => (await env.db.sql`select consecutive, disabled_at from target_bounces where user_id = ${userId} and email = ${email}`)[0]
const sendReport = (srs: string, raw: string) => env.send({ envelopeFrom: '', to: srs, raw })

describe('delivery reports at the SRS address', () => {
  it('records a 5.x.x failure for the forward\'s target with its code and reason; five in a row mark the target', async () => {
    const target = `late-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const f = await forwardedOnce(target)
    expect(f.srs).toMatch(/^SRS0=[a-z2-7]{8}=[a-z2-7]{12}=outside\.example=sender@veilmail\.test$/)
    expect((await sendReport(f.srs, report(f.srs, target))).accepted).toEqual([f.srs])
    await expect.poll(() => rows(f.aliasId), { timeout: 20_000 }).toEqual([{ target, code: 550, reason: `550 5.1.1 <${target}>: user unknown` }])
    expect(await state(f.userId, target)).toMatchObject({ consecutive: 1, disabledAt: null })
    for (let i = 0; i < 4; i++) await sendReport(f.srs, report(f.srs, target.toUpperCase()))
    await expect.poll(() => state(f.userId, target), { timeout: 20_000 }).toMatchObject({ consecutive: 5, disabledAt: expect.any(Date) })
  }, 60_000)

  it('finds the alias a report names among more than 1,000 aliases forwarding to one target', async () => {
    const target = `many-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const f = await forwardedOnce(target)
    // 1,100 more aliases of the owner forwarding to the same target, then one more that forwards
    await env.db.sql`
      insert into aliases (user_id, alias, domain, forward_to)
      select ${f.userId}, 'bulk' || n || ${crypto.randomUUID().slice(0, 6)}, 'veilmail.test', ${target} from generate_series(1, 1100) n`
    const [last] = await env.db.sql<{ id: string; alias: string }[]>`
      insert into aliases (user_id, alias, domain, forward_to) values (${f.userId}, ${`last${crypto.randomUUID().slice(0, 8)}`}, 'veilmail.test', ${target}) returning id, alias`
    expect((await env.db.sql`select count(*)::int as n from aliases where user_id = ${f.userId}`)[0].n).toBe(1102)
    await env.send({ to: `${last.alias}@veilmail.test`, subject: 'From the last alias' })
    const forwarded = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes(target) && m.raw.toString().includes('From the last alias')))
    expect(forwarded.from).toMatch(/^SRS0=/)
    await sendReport(forwarded.from, report(forwarded.from, target))
    await expect.poll(() => rows(last.id), { timeout: 20_000 }).toEqual([{ target, code: 550, reason: `550 5.1.1 <${target}>: user unknown` }])
    expect(await rows(f.aliasId)).toEqual([])
  }, 60_000)

  it('still matches a report to an address issued before tags named their alias (the all-HMAC tag)', async () => {
    const target = `old-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const f = await forwardedOnce(target)
    const srs = new Srs(env.config.secretKey)
    // the address a forward carried before the change: the same SRS form, its tag the HMAC alone
    const old = srs.forward('sender@outside.example', 'veilmail.test', Date.now(), srs.legacyBounceTag(f.aliasId, target))
    expect(old).not.toBe(f.srs)
    expect((await sendReport(old, report(old, target))).accepted).toEqual([old])
    await expect.poll(() => rows(f.aliasId), { timeout: 20_000 }).toEqual([{ target, code: 550, reason: `550 5.1.1 <${target}>: user unknown` }])
    // an old-form tag of another alias names nothing here
    const other = srs.forward('sender@outside.example', 'veilmail.test', Date.now(), srs.legacyBounceTag(crypto.randomUUID(), target))
    await sendReport(other, report(other, target))
    await sendReport(f.srs, report(f.srs, target))
    await expect.poll(() => rows(f.aliasId).then((r) => r.length), { timeout: 20_000 }).toBe(2)
  }, 60_000)

  it('believes a report only for the target its signed address names: forged, other recipients, 4.x.x, non-reports and oversized ones record nothing', async () => {
    const target = `kept-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const f = await forwardedOnce(target)
    const victim = `victim-${crypto.randomUUID().slice(0, 6)}@mailbox.example`
    const other = await forwardedOnce(victim)
    // the tag or hash altered: refused at RCPT
    const forged = f.srs.replace(/^(SRS0=[a-z2-7]{8}=[a-z2-7]{2})([a-z2-7])/, (_, head, c) => head + (c === 'a' ? 'b' : 'a'))
    await expect(sendReport(forged, report(forged, target))).rejects.toThrow(/550/)
    // a real address of this forward naming another user's target, a transient status, junk, a huge report
    await sendReport(f.srs, report(f.srs, victim))
    await sendReport(f.srs, report(f.srs, target, '4.2.2', 'smtp; 452 4.2.2 mailbox full'))
    await sendReport(f.srs, 'Subject: not a report\r\nContent-Type: text/plain\r\n\r\nhello\r\n')
    await sendReport(f.srs, report(f.srs, target, '5.1.1', 'smtp; 550 too late', `${'x'.repeat(998)}\r\n`.repeat(200)))
    await sendReport(f.srs, 'Content-Type: multipart/report; report-type=delivery-status; boundary=' + 'b'.repeat(5000) + '\r\n\r\n--x\r\n')
    // a report to the other forward's address for this target is not this target's either
    await sendReport(other.srs, report(other.srs, target))
    // one good report after them all is recorded: the session and the MX survived the rest
    await sendReport(f.srs, report(f.srs, target, '5.2.1', 'smtp; 550 5.2.1 account disabled'))
    await expect.poll(() => rows(f.aliasId), { timeout: 20_000 }).toEqual([{ target, code: 550, reason: '550 5.2.1 account disabled' }])
    expect(await rows(other.aliasId)).toEqual([])
    expect(await state(other.userId, victim)).toBeUndefined()
  }, 60_000)
})
