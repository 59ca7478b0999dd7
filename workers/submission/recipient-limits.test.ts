// Issue 11 item 5a: recipients per user per hour and per day, over compose and the submission
// server together, counted atomically before a mail is queued, so requests sent at once cannot
// pass the limit between them.
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'
import { createSubmissionEnv, smtpSender, type SubmissionEnv } from '../../scripts/testing/submission-env.ts'

let world: SubmissionEnv
let env: MailEnv
let ports: { starttls: number; tls: number }

beforeAll(async () => {
  world = await createSubmissionEnv({ RATE_LIMITS: 'recipients-hour=5/3600,recipients-day=7/86400' })
  ;({ env, ports } = world)
}, 60_000)
afterAll(() => world.close())

const sender = () => smtpSender(env, 'limit')

const compose = (api: ApiClient, aliasId: string, i: number) =>
  api.json(api.post('/api/email-jobs', { to: `friend${i}@example.org`, subject: `s${i}`, body: 'b', fromAliasId: aliasId }))

const jobsOf = async (userId: string) => (await env.db.sql`select count(*)::int as n from email_jobs where user_id = ${userId} and source <> 'system'`)[0].n

describe('recipient limits', () => {
  it('compose: of 12 requests at once, exactly the hourly limit is queued; the rest get 429 with a clear message', async () => {
    const s = await sender()
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => compose(s.api, s.aliasId, i)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(5)
    const refused = results.filter((r) => r.status === 429)
    expect(refused).toHaveLength(7)
    expect(refused[0].body).toMatchObject({ rateLimited: true, resetTime: expect.any(String), message: expect.stringMatching(/^You have reached your sending limit of 5 recipients per hour\. Try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/) })
    expect(await jobsOf(s.user.id)).toBe(5)

    // an hour later (the window reset) the daily limit of 7 still allows only 2 more
    await env.db.sql`delete from rate_limits where action_type = 'recipients-hour' and key = ${s.user.id}`
    const later = await Promise.all(Array.from({ length: 5 }, (_, i) => compose(s.api, s.aliasId, 20 + i)))
    expect(later.filter((r) => r.status === 201)).toHaveLength(2)
    expect(later.filter((r) => r.status === 429)[0].body.message).toMatch(/7 recipients per day/)
    expect(await jobsOf(s.user.id)).toBe(7)
  })

  it('submission: RCPT past the limit gets 452 4.5.3 with the reason, also over connections at once, and compose counts with it', async () => {
    const s = await sender()
    const transport = () => nodemailer.createTransport({
      host: '127.0.0.1', port: ports.starttls, secure: false, requireTLS: true, auth: { user: s.address, pass: s.password }, tls: { rejectUnauthorized: false },
    })
    // three connections at once, four recipients each: five fit
    const sends = await Promise.allSettled([0, 1, 2].map((c) => transport().sendMail({
      from: s.address, to: [0, 1, 2, 3].map((i) => `r${c}-${i}@example.org`), subject: `burst ${c}`, text: 'x',
    })))
    const accepted = sends.flatMap((r) => (r.status === 'fulfilled' ? r.value.accepted : []))
    expect(accepted).toHaveLength(5)
    const reasons = sends.flatMap((r) => (r.status === 'fulfilled' ? r.value.rejectedErrors ?? [] : [r.reason]))
    expect(reasons.length).toBeGreaterThan(0)
    for (const reason of reasons) expect(reason).toMatchObject({ responseCode: 452, response: expect.stringMatching(/^452 4\.5\.3 You have reached your sending limit of 5 recipients per hour/) })
    expect(await jobsOf(s.user.id)).toBe(5)
    // the web's compose shares the same count
    expect((await compose(s.api, s.aliasId, 99)).status).toBe(429)
  })
})
