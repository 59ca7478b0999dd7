// Reply all (issue 26): one mail to several people, To and Cc, through the compose API, the
// outgoing queue and the delivery worker to a real smtp-server relay: one message, an envelope
// recipient for each, the To: and Cc: fields as written; hostile address fields refused; every
// recipient counted against the hourly and daily limits, also for requests sent at once; what a
// mail from an alias or a mailbox would show the others. Real database, real worker.
import { simpleParser, type AddressObject } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { composeSender } from '../../scripts/testing/compose-sender.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { abandonEmailJob } from '../../db/email-jobs.ts'
import { insertEmailProvider } from '../../db/email-providers.ts'
import { upsertReverseAliases } from '../../db/reverse-aliases.ts'
import { sealCredentials } from '../../lib/mailbox-credentials.ts'

let env: MailEnv

beforeAll(async () => {
  env = await createMailEnv({ env: { UNDO_SECONDS: '0', EMAIL_RETRY_DELAY_SECONDS: '1', RATE_LIMITS: 'recipients-hour=10/3600,recipients-day=1000/86400' } })
}, 60_000)
afterAll(() => env.close())

/** A new user with an alias that can send. */
const sender = () => composeSender(env.app(), 'several')

/** A connected mailbox (its rows only: nothing here connects to it). */
async function addMailbox(userId: string, email: string, id: string = crypto.randomUUID()) {
  await insertEmailProvider(env.db.sql, { id, userId, provider: 'other', email, credentials: sealCredentials(env.config, id, { email, password: 'unused', host: 'imap.mailbox.example', port: 993, secure: true }) })
}

const jobsOf = async (userId: string) => (await env.db.sql`select count(*)::int as n from email_jobs where user_id = ${userId} and source <> 'system'`)[0].n
const counted = async (userId: string, action: string) => (await env.db.sql`select count from rate_limits where action_type = ${action} and key = ${userId}`)[0]?.count ?? 0
const relayed = (subject: string) => waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes(`Subject: ${subject}`)))
const addresses = (field: AddressObject | AddressObject[] | undefined) => [field ?? []].flat().flatMap((a) => a.value.map((v) => v.address))

describe('a mail to several people', () => {
  it('leaves as one message with an envelope recipient for each, To and Cc as written, and is sent', async () => {
    const s = await sender()
    const subject = `reply all ${crypto.randomUUID()}`
    const { status, body } = await s.compose({ subject, to: 'ann@example.org, Bob@Example.net; ANN@example.org', cc: ['carol@example.com', 'dan@example.edu', 'bob@example.net'] })
    expect(status).toBe(201)
    const message = await relayed(subject)
    expect(message.from).toBe(s.address)
    // duplicates (any case) once; someone in both fields once, as To
    expect(message.to).toEqual(['ann@example.org', 'Bob@Example.net', 'carol@example.com', 'dan@example.edu'])
    expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))).toHaveLength(1)
    const parsed = await simpleParser(message.raw)
    expect(addresses(parsed.to)).toEqual(['ann@example.org', 'Bob@example.net']) // the header's domain in lower case
    expect(addresses(parsed.cc)).toEqual(['carol@example.com', 'dan@example.edu'])
    expect(parsed.from?.text).toBe(s.address)
    expect(parsed.headers.has('bcc')).toBe(false)
    await expect.poll(async () => (await s.api.json(s.api.get(`/api/email-jobs/${body.jobId}/status`))).body.status, { timeout: 20_000 }).toBe('sent')
    const [row] = await env.db.sql`select recipient_email, recipients from email_jobs where id = ${body.jobId}`
    expect(row).toEqual({ recipientEmail: 'ann@example.org', recipients: ['ann@example.org', 'Bob@Example.net', 'carol@example.com', 'dan@example.edu'] })
  })

  it('deferred by the relay (451 to every RCPT), is retried as the same one message and then reaches everyone', async () => {
    const s = await sender()
    const subject = `deferred ${crypto.randomUUID()}`
    env.relay.rejectRcpt = 451
    const status = async (jobId: string) => (await s.api.json(s.api.get(`/api/email-jobs/${jobId}/status`))).body
    try {
      const { body } = await s.compose({ subject, to: 'ann@example.org, bob@example.net', cc: 'carol@example.com' })
      await expect.poll(async () => (await status(body.jobId)).status, { timeout: 20_000 }).toBe('retrying')
      expect((await status(body.jobId)).lastError).toMatch(/451/)
    } finally {
      env.relay.rejectRcpt = undefined
    }
    const message = await relayed(subject)
    expect(message.to).toEqual(['ann@example.org', 'bob@example.net', 'carol@example.com'])
    expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))).toHaveLength(1)
  })

  it('a recipient the relay refuses does not stop the others: sent, and the status names it with the reply', async () => {
    const s = await sender()
    const subject = `partly ${crypto.randomUUID()}`
    env.relay.refuse.set('nobody@example.org', 550)
    try {
      const { body } = await s.compose({ subject, to: 'ann@example.org', cc: 'nobody@example.org, carol@example.com' })
      const message = await relayed(subject)
      expect(message.to).toEqual(['ann@example.org', 'carol@example.com'])
      await expect.poll(async () => (await s.api.json(s.api.get(`/api/email-jobs/${body.jobId}/status`))).body, { timeout: 20_000 })
        .toMatchObject({ status: 'sent', lastError: 'Sent, but not delivered to nobody@example.org (550 5.1.1 <nobody@example.org>: mailbox unavailable)' })
    } finally {
      env.relay.refuse.clear()
    }
  })

  it('a recipient deferred (451) while the others took it gets the same message later, alone, once; the status says who is still tried, then sent', async () => {
    const s = await sender()
    const subject = `deferred one ${crypto.randomUUID()}`
    env.relay.refuse.set('bob@example.net', 451)
    const status = async (jobId: string) => (await s.api.json(s.api.get(`/api/email-jobs/${jobId}/status`))).body
    let jobId: string
    try {
      jobId = (await s.compose({ subject, to: 'ann@example.org, bob@example.net', cc: 'carol@example.com, dan@example.edu' })).body.jobId
      expect((await relayed(subject)).to).toEqual(['ann@example.org', 'carol@example.com', 'dan@example.edu'])
      await expect.poll(() => status(jobId), { timeout: 20_000 }).toMatchObject({
        status: 'retrying', messageId: `<${jobId}@veilmail.test>`, canUndo: false,
        lastError: 'Sent to 3 of 4; retrying bob@example.net (server said 451 5.1.1 <bob@example.net>: mailbox unavailable)',
      })
      // too late to cancel: three people have it
      expect((await s.api.json(s.api.post(`/api/email-jobs/${jobId}/cancel`))).body.success).toBe(false)
    } finally {
      env.relay.refuse.clear()
    }
    await expect.poll(() => status(jobId), { timeout: 30_000 }).toMatchObject({ status: 'sent', lastError: null, messageId: `<${jobId}@veilmail.test>` })
    const copies = env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))
    expect(copies.map((m) => m.to)).toEqual([['ann@example.org', 'carol@example.com', 'dan@example.edu'], ['bob@example.net']])
    const [first, retry] = await Promise.all(copies.map((m) => simpleParser(m.raw)))
    // the same message: Message-ID, date, To/Cc as written, body
    for (const field of ['messageId', 'date', 'subject', 'text'] as const) expect(retry[field]).toEqual(first[field])
    expect(addresses(retry.to)).toEqual(['ann@example.org', 'bob@example.net'])
    expect(addresses(retry.cc)).toEqual(['carol@example.com', 'dan@example.edu'])
    expect(retry.from?.text).toBe(s.address)
    // the retry counted no recipient a second time
    expect(await counted(s.userId, 'recipients-hour')).toBe(4)
    expect(await counted(s.userId, 'recipients-day')).toBe(4)
  })

  it('a recipient that stays deferred is tried until the retries run out, then named as not delivered; a 550 one is never tried again', async () => {
    const s = await sender()
    const subject = `stays deferred ${crypto.randomUUID()}`
    env.relay.refuse.set('late@example.net', 451).set('gone@example.org', 550)
    const status = async (jobId: string) => (await s.api.json(s.api.get(`/api/email-jobs/${jobId}/status`))).body
    try {
      const { body } = await s.compose({ subject, to: 'ann@example.org, late@example.net', cc: 'gone@example.org' })
      await expect.poll(() => status(body.jobId), { timeout: 20_000 }).toMatchObject({
        status: 'retrying',
        lastError: 'Sent to 1 of 3; retrying late@example.net (server said 451 5.1.1 <late@example.net>: mailbox unavailable); not delivered to gone@example.org (550 5.1.1 <gone@example.org>: mailbox unavailable)',
      })
      await expect.poll(() => status(body.jobId), { timeout: 60_000, interval: 500 }).toMatchObject({
        status: 'sent', currentRetries: 5, messageId: `<${body.jobId}@veilmail.test>`,
        lastError: 'Sent, but not delivered to gone@example.org (550 5.1.1 <gone@example.org>: mailbox unavailable); late@example.net (451 5.1.1 <late@example.net>: mailbox unavailable)',
      })
    } finally {
      env.relay.refuse.clear()
    }
    expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).map((m) => m.to)).toEqual([['ann@example.org']])
    // asked for once and for each of the five retries; the 550 one once
    expect(env.relay.rcpts.filter((a) => a === 'late@example.net')).toHaveLength(6)
    expect(env.relay.rcpts.filter((a) => a === 'gone@example.org')).toHaveLength(1)
  }, 90_000)

  it('every recipient refused, one 550 and one 451: only the 451 one is tried again, and the mail ends sent naming the 550 one', async () => {
    const s = await sender()
    const subject = `mixed ${crypto.randomUUID()}`
    env.relay.refuse.set('never@example.org', 550).set('soon@example.net', 451)
    const status = async (jobId: string) => (await s.api.json(s.api.get(`/api/email-jobs/${jobId}/status`))).body
    let jobId: string
    try {
      jobId = (await s.compose({ subject, to: 'never@example.org', cc: 'soon@example.net' })).body.jobId
      await expect.poll(() => status(jobId), { timeout: 10_000 }).toMatchObject({
        status: 'retrying', messageId: null, canUndo: false, // nothing has left: no Message-ID yet (UNDO_SECONDS is 0 here)
        lastError: 'Retrying soon@example.net (server said 451 5.1.1 <soon@example.net>: mailbox unavailable); not delivered to never@example.org (550 5.1.1 <never@example.org>: mailbox unavailable)',
      })
      // deferred again on its own: still retrying, the 550 one still named, and not asked again
      await expect.poll(() => status(jobId), { timeout: 10_000 }).toMatchObject({
        status: 'retrying', currentRetries: 2,
        lastError: 'Retrying soon@example.net (server said 451 5.1.1 <soon@example.net>: mailbox unavailable); not delivered to never@example.org (550 5.1.1 <never@example.org>: mailbox unavailable)',
      })
    } finally {
      env.relay.refuse.delete('soon@example.net')
    }
    try {
      await expect.poll(() => status(jobId), { timeout: 15_000 }).toMatchObject({
        status: 'sent', messageId: `<${jobId}@veilmail.test>`, lastError: 'Sent, but not delivered to never@example.org (550 5.1.1 <never@example.org>: mailbox unavailable)',
      })
    } finally {
      env.relay.refuse.clear()
    }
    expect(env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).map((m) => m.to)).toEqual([['soon@example.net']])
    expect(env.relay.rcpts.filter((a) => a === 'never@example.org')).toHaveLength(1)
  })

  it('a mail some recipients have, whose queue entry runs out of attempts (workers died), ends sent naming the refused and the pending ones, not failed', async () => {
    const s = await sender()
    const subject = `abandoned ${crypto.randomUUID()}`
    env.relay.refuse.set('held@example.net', 451).set('gone@example.org', 550)
    try {
      const { body } = await s.compose({ subject, to: 'ann@example.org, held@example.net', cc: 'gone@example.org' })
      await expect.poll(async () => (await s.api.json(s.api.get(`/api/email-jobs/${body.jobId}/status`))).body.status, { timeout: 20_000 }).toBe('retrying')
      await abandonEmailJob(env.db.sql, body.jobId) // what the dead-letter consumer does
      expect((await s.api.json(s.api.get(`/api/email-jobs/${body.jobId}/status`))).body).toMatchObject({
        status: 'sent', messageId: `<${body.jobId}@veilmail.test>`,
        lastError: 'Sent, but not delivered to gone@example.org (550 5.1.1 <gone@example.org>: mailbox unavailable); held@example.net (delivery stopped after repeated interruptions)',
      })
    } finally {
      env.relay.refuse.clear()
    }
  })

  it('a mail nobody has yet, one recipient refused for good and one deferred, whose queue entry runs out of attempts ends failed naming both', async () => {
    const s = await sender()
    env.relay.refuse.set('wait@example.net', 451).set('never@example.org', 550)
    try {
      const { body } = await s.compose({ to: 'wait@example.net', cc: 'never@example.org' })
      await expect.poll(async () => (await s.api.json(s.api.get(`/api/email-jobs/${body.jobId}/status`))).body.status, { timeout: 20_000 }).toBe('retrying')
      await abandonEmailJob(env.db.sql, body.jobId)
      expect((await s.api.json(s.api.get(`/api/email-jobs/${body.jobId}/status`))).body).toMatchObject({
        status: 'failed', messageId: null,
        lastError: 'Not delivered to never@example.org (550 5.1.1 <never@example.org>: mailbox unavailable); wait@example.net (delivery stopped after repeated interruptions)',
      })
    } finally {
      env.relay.refuse.clear()
    }
  })

  it('refuses hostile address fields with the field and the address named, and queues nothing', async () => {
    const s = await sender()
    const refused = async (over: Record<string, unknown>, field: string, message: string | RegExp) => {
      const res = await s.compose(over)
      expect(res.status, JSON.stringify(over).slice(0, 200)).toBe(400)
      expect(res.body.message).toEqual(expect.any(String))
      expect(res.body.errors[field][0]).toMatch(message)
    }
    await refused({ to: 'ann@example.org\r\nBcc: evil@attacker.example' }, 'to', 'Header values cannot contain line breaks')
    await refused({ cc: 'carol@example.com\nBcc: evil@attacker.example' }, 'cc', 'Header values cannot contain line breaks')
    await refused({ cc: ['carol@example.com\r', 'dan@example.edu'] }, 'cc', 'Header values cannot contain line breaks')
    // one entry of a list is one address: a second one smuggled into it is refused, never split
    await refused({ to: ['ann@example.org, evil@attacker.example'] }, 'to', '"ann@example.org, evil@attacker.example" is not a valid email address')
    await refused({ cc: ['carol@example.com; evil@attacker.example'] }, 'cc', /is not a valid email address/)
    // a display name or route hiding another address, a quoted local part, a bare name
    await refused({ to: 'Ann <ann@example.org>' }, 'to', '"Ann <ann@example.org>" is not a valid email address')
    await refused({ to: 'ann@example.org, "evil@attacker.example" <x@example.org>' }, 'to', /is not a valid email address/)
    await refused({ cc: 'carol@example.com, bad@' }, 'cc', '"bad@" is not a valid email address')
    await refused({ to: '' }, 'to', 'Valid recipient email is required')
    await refused({ to: ' , ; ' }, 'to', 'Valid recipient email is required')
    await refused({ to: 42 }, 'to', 'Valid recipient email is required')
    // over-long: 51 people, a field of a megabyte, an address of 300 characters
    const people = Array.from({ length: 51 }, (_, i) => `p${i}@example.org`)
    await refused({ to: people.join(', ') }, 'to', 'A message can go to at most 50 recipients (To and Cc together)')
    await refused({ to: people.slice(0, 30), cc: people.slice(30) }, 'cc', 'A message can go to at most 50 recipients (To and Cc together)')
    await refused({ to: `${'a'.repeat(1_000_000)}@example.org` }, 'to', 'A message can go to at most 50 recipients (To and Cc together)')
    await refused({ to: `${'a'.repeat(290)}@example.org` }, 'to', /is not a valid email address/)
    expect(await jobsOf(s.userId)).toBe(0)
    expect(await counted(s.userId, 'recipients-hour')).toBe(0)
    // 50 together is the most, and fits
    expect((await s.compose({ to: people.slice(0, 10), cc: people.slice(10, 50) })).status).toBe(429) // over this test's hourly 10
    expect(await counted(s.userId, 'recipients-hour')).toBe(0) // a refused mail gives its recipients back
  })

  it('counts every recipient: of six mails to three people sent at once, exactly three are queued; a refused mail gives its recipients back', async () => {
    const s = await sender()
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      s.compose({ to: `a${i}@example.org, b${i}@example.org`, cc: `c${i}@example.org` })))
    expect(results.filter((r) => r.status === 201)).toHaveLength(3)
    const refused = results.filter((r) => r.status === 429)
    expect(refused).toHaveLength(3)
    expect(refused[0].body.message).toMatch(/^You have reached your sending limit of 10 recipients per hour\./)
    expect(await jobsOf(s.userId)).toBe(3)
    // nine recipients counted in the hour and in the day; the refused ones' were given back
    expect(await counted(s.userId, 'recipients-hour')).toBe(9)
    expect(await counted(s.userId, 'recipients-day')).toBe(9)
    expect((await s.compose({ to: 'x@example.org, y@example.org' })).status).toBe(429)
    expect((await s.compose({ to: 'x@example.org' })).status).toBe(201)
    expect(await counted(s.userId, 'recipients-day')).toBe(10)
  })

  it('from an alias, never shows one of the user\'s real addresses to the others; a mail to that address alone still goes', async () => {
    const s = await sender()
    const mailbox = `real-${crypto.randomUUID().slice(0, 8)}@mailbox.example`
    await addMailbox(s.userId, mailbox)
    const cc = await s.compose({ to: 'ann@example.org', cc: `carol@example.com, ${mailbox.toUpperCase()}` })
    expect(cc.status).toBe(400)
    expect(cc.body.errors.cc[0]).toBe(`${mailbox.toUpperCase()} is one of your own real addresses: every other recipient would see it beside your alias. Remove it, or send it a separate mail.`)
    // the alias's forward target is a real address too
    await env.db.sql`insert into forward_targets (user_id, email, confirmed_at) values (${s.userId}, 'me@example.com', now()) on conflict do nothing`
    expect((await s.compose({ to: 'me@example.com, ann@example.org' })).body.errors.to[0]).toMatch(/^me@example\.com is one of your own real addresses/)
    expect(await jobsOf(s.userId)).toBe(0)
    expect((await s.compose({ to: mailbox })).status).toBe(201)
  })

  it('from a mailbox, a mail to an alias\'s contacts goes to them alone (the MX re-sends it from the alias), never with others beside', async () => {
    const s = await sender()
    const providerId = crypto.randomUUID()
    const mailbox = `real-${crypto.randomUUID().slice(0, 8)}@mailbox.example`
    await addMailbox(s.userId, mailbox, providerId)
    await env.db.sql`update email_providers set smtp_host = 'smtp.mailbox.example', smtp_port = 465, smtp_security = 'tls' where id = ${providerId}`
    const local = `contact_${crypto.randomUUID().slice(0, 8)}`
    await upsertReverseAliases(env.db.sql, s.aliasId, 'veilmail.test', [{ localPart: local, contactAddress: 'contact@outside.example', contactName: null }])
    const res = await s.compose({ fromAliasId: undefined, fromProviderId: providerId, to: `${local}@veilmail.test`, cc: 'other@outside.example' })
    expect(res.status).toBe(400)
    expect(res.body.errors.cc[0]).toMatch(new RegExp(`^${local}@veilmail\\.test is a contact of one of your aliases: sent from ${mailbox.replace('.', '\\.')} together with other@outside\\.example`))
    expect(await jobsOf(s.userId)).toBe(0)
    expect((await s.compose({ fromAliasId: undefined, fromProviderId: providerId, to: `${local}@veilmail.test` })).status).toBe(201)
    // a contact of an alias on the user's own domain has its reverse alias on that domain: the same
    const own = `own_${crypto.randomUUID().slice(0, 8)}`
    await upsertReverseAliases(env.db.sql, s.aliasId, 'mail.own-domain.example', [{ localPart: own, contactAddress: 'friend@outside.example', contactName: null }])
    const custom = await s.compose({ fromAliasId: undefined, fromProviderId: providerId, to: `${own}@mail.own-domain.example`, cc: 'other@outside.example' })
    expect(custom.status).toBe(400)
    expect(custom.body.errors.cc[0]).toMatch(new RegExp(`^${own}@mail\\.own-domain\\.example is a contact of one of your aliases`))
    expect(await jobsOf(s.userId)).toBe(1)
  })
})
