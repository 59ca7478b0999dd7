// The submission server's cap on recipients per message (RFC 5321 §4.5.3.1.8: at least 100 taken;
// §4.5.3.1.10: one more is answered 452 4.5.3): the session goes on and the message leaves with
// its first 100. Real SMTP clients (nodemailer and raw command lines), several sessions at once,
// real database.
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RawSmtp } from '../../scripts/testing/raw-smtp.ts'
import { createSubmissionEnv, smtpSender, type SubmissionEnv } from '../../scripts/testing/submission-env.ts'
import { MAX_SUBMISSION_RECIPIENTS } from './submission-server.ts'

let world: SubmissionEnv
beforeAll(async () => {
  world = await createSubmissionEnv({ RATE_LIMITS: 'recipients-hour=100000/3600,recipients-day=100000/86400,smtp-send-credential=1000/3600' })
}, 60_000)
afterAll(() => world.close())

const sender = () => smtpSender(world.env, 'cap')

const people = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}@example.org`)
const queuedTo = async (userId: string) =>
  (await world.env.db.sql`select recipient_email from email_jobs where user_id = ${userId} and source = 'smtp'`).map((r) => r.recipientEmail as string).sort()
const counted = async (userId: string) => (await world.env.db.sql`select count from rate_limits where action_type = 'recipients-hour' and key = ${userId}`)[0]?.count ?? 0
const TOO_MANY = `452 4.5.3 Too many recipients: at most ${MAX_SUBMISSION_RECIPIENTS} per message, send the rest in another`

describe('recipients per message', () => {
  it('is 100: nodemailer from three sessions at once, 105 each, gets 100 taken and 452 4.5.3 for the rest, and each message is queued to its first 100', async () => {
    expect(MAX_SUBMISSION_RECIPIENTS).toBe(100)
    const s = await sender()
    const transport = () => nodemailer.createTransport({
      host: '127.0.0.1', port: world.ports.starttls, secure: false, requireTLS: true, auth: { user: s.address, pass: s.password }, tls: { rejectUnauthorized: false },
    })
    const lists = [0, 1, 2].map((c) => people(`s${c}`, 105))
    const infos = await Promise.all(lists.map((to, c) => transport().sendMail({ from: s.address, to, subject: `many ${c}`, text: 'x' })))
    for (const [c, info] of infos.entries()) {
      expect(info.accepted).toEqual(lists[c].slice(0, 100))
      expect(info.rejected).toEqual(lists[c].slice(100))
      for (const e of info.rejectedErrors ?? []) expect(e).toMatchObject({ responseCode: 452, response: TOO_MANY })
      expect(info.response).toMatch(/^250 2\.0\.0 Queued as/)
    }
    expect(await queuedTo(s.user.id)).toEqual(lists.flatMap((l) => l.slice(0, 100)).sort())
    // only the recipients taken count against the sending limits
    expect(await counted(s.user.id)).toBe(300)
  })

  it('raw SMTP: the 101st RCPT gets 452 4.5.3, one already taken is taken again, DATA sends to the 100, and the next message starts afresh', async () => {
    const s = await sender()
    const sessions = await Promise.all([0, 1].map(async (c) => {
      const { client } = await RawSmtp.connect(world.ports.starttls)
      await client.command('EHLO client.example')
      expect(await client.startTls()).toMatch(/^220/)
      await client.command('EHLO client.example')
      expect(await client.command(`AUTH PLAIN ${Buffer.from(`\0${s.address}\0${s.password}`).toString('base64')}`)).toMatch(/^235/)
      return { client, to: people(`raw${c}`, 101) }
    }))
    await Promise.all(sessions.map(async ({ client, to }) => {
      expect(await client.command(`MAIL FROM:<${s.address}>`)).toMatch(/^250/)
      for (const address of to.slice(0, 100)) expect(await client.command(`RCPT TO:<${address}>`)).toMatch(/^250/)
      expect(await client.command(`RCPT TO:<${to[100]}>`)).toBe(TOO_MANY)
      expect(await client.command('RCPT TO:<extra@example.org>')).toBe(TOO_MANY)
      expect(await client.command(`RCPT TO:<${to[7]}>`)).toMatch(/^250/) // already one of the 100
      const reply = await client.data(`From: ${s.address}\r\nTo: ${to[0]}\r\nSubject: raw many\r\n\r\nhello\r\n`)
      expect(reply).toMatch(/^250 2\.0\.0 Queued as/)
      expect(reply.split(' ').length - 4).toBe(100)
      // a new transaction has its own 100
      expect(await client.command(`MAIL FROM:<${s.address}>`)).toMatch(/^250/)
      expect(await client.command(`RCPT TO:<${to[100]}>`)).toMatch(/^250/)
      expect(await client.command('RSET')).toMatch(/^250/)
      await client.command('QUIT')
      client.close()
    }))
    expect(await queuedTo(s.user.id)).toEqual(sessions.flatMap(({ to }) => to.slice(0, 100)).sort())
  })
})
