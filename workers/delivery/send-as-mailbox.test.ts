// Sending as a connected mailbox (issue 26): compose → the outgoing queue → the account's own SMTP
// server (a local stand-in with AUTH, under the same test CA as the private Dovecot) → a copy in
// the account's \Sent folder on Dovecot. Real database, real delivery worker, real IMAP.
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { startMailboxSmtp, type MailboxSmtpStandIn } from '../../scripts/testing/mailbox-smtp-stand-in.ts'
import { addImapAccount } from '../../scripts/testing/mailbox-accounts.ts'
import { insertEmailProvider } from '../../db/email-providers.ts'
import { sealCredentials } from '../../lib/mailbox-credentials.ts'
import { startDeliveryWorker } from './delivery-worker.ts'

const run = dovecotAvailable()

describe.runIf(run)('sending as a connected mailbox', () => {
  let env: MailEnv
  let dovecot: Dovecot
  let smtp: MailboxSmtpStandIn
  let starttls: MailboxSmtpStandIn
  let client: ApiClient
  let providerId: string
  const address = `me-${Date.now()}@mailbox.test`
  let password: string

  beforeAll(async () => {
    dovecot = await startDovecot()
    smtp = await startMailboxSmtp(dovecot.certificates, 'tls')
    starttls = await startMailboxSmtp(dovecot.certificates, 'starttls')
    env = await createMailEnv({ worker: false, env: { UNDO_SECONDS: '0', EMAIL_RETRY_DELAY_SECONDS: '1' } })
    env.deps.mailboxCa = dovecot.ca
    await startDeliveryWorker(env.boss, env.deps, { concurrency: 2, pollSeconds: 0.5 })
    client = new ApiClient(env.app())
    await client.register()
    password = dovecot.addUser(address)
    smtp.users.set(address, password)
    providerId = (await addImapAccount(client, dovecot, address, password)).providerId
  }, 60_000)
  afterAll(async () => {
    await env?.close()
    await smtp?.close()
    await starttls?.close()
    await dovecot?.stop()
  })

  const setSmtp = (body: Record<string, unknown>, id = providerId, as = client) => as.json(as.put(`/api/email-providers/${id}/smtp`, body))
  const compose = (over: Record<string, unknown> = {}) =>
    client.json(client.post('/api/email-jobs', { to: 'friend@example.org', subject: 'Hello', body: 'Hi there', fromProviderId: providerId, ...over }))
  const status = async (jobId: string) => (await client.json(client.get(`/api/email-jobs/${jobId}/status`))).body
  const untilStatus = (jobId: string, wanted: string) => expect.poll(async () => (await status(jobId)).status, { timeout: 30_000, interval: 100 }).toBe(wanted)
  const sentCopies = async (subject: string) => {
    const imap = await dovecot.client(address)
    try {
      const lock = await imap.getMailboxLock('Sent', { readOnly: true })
      try {
        return ((await imap.search({ subject })) || []).length
      } finally {
        lock.release()
      }
    } finally {
      await imap.logout()
    }
  }
  /** Another connected mailbox of this user, sending through the TLS stand-in: its provider id. */
  const sendingAccount = async (email: string) => {
    const pass = dovecot.addUser(email)
    smtp.users.set(email, pass)
    const id = (await addImapAccount(client, dovecot, email, pass)).providerId
    await setSmtp({ host: '127.0.0.1', port: smtp.port, security: 'tls' }, id)
    return id as string
  }
  const submitted = (standIn: MailboxSmtpStandIn, subject: string) => waitFor(standIn, 'message', () => standIn.messages.find((m) => m.raw.includes(`Subject: ${subject}`)))

  it('is not offered before its SMTP server is set up (a custom account has no preset)', async () => {
    const { body: list } = await client.json(client.get('/api/email-providers'))
    expect(list.providers[0].smtp).toBeNull()
    const res = await compose()
    expect(res.status).toBe(400)
    expect(res.body.errors.fromProviderId[0]).toMatch(/not set up/)
  })

  it('leaves through the account\'s SMTP server with its IMAP login, as the address, and lands in its Sent folder', async () => {
    const saved = await setSmtp({ host: '127.0.0.1', port: smtp.port, security: 'tls' })
    expect(saved.status).toBe(200)
    expect(saved.body.provider.smtp).toEqual({ host: '127.0.0.1', port: smtp.port, security: 'tls', preset: false, username: null })
    const subject = `as the mailbox ${crypto.randomUUID()}`
    const { status: code, body } = await compose({ subject })
    expect(code).toBe(201)
    const message = await submitted(smtp, subject)
    expect(message).toMatchObject({ user: address, method: 'PLAIN', secure: true, from: address, to: ['friend@example.org'] })
    const parsed = await simpleParser(message.raw)
    expect(parsed.from?.text).toBe(address)
    expect(parsed.messageId).toBe(`<${body.jobId}@mailbox.test>`)
    expect(parsed.headers.has('dkim-signature')).toBe(false) // the provider signs its own mail, not us
    expect(env.relay.messages.some((m) => m.raw.includes(subject))).toBe(false)
    await untilStatus(body.jobId, 'sent')
    expect(await status(body.jobId)).toMatchObject({ lastError: null, messageId: `<${body.jobId}@mailbox.test>` })
    // the copy, as another mail app sees the account's SPECIAL-USE \Sent folder
    await expect.poll(async () => (await dovecot.flags(address, 'Sent')).get(subject), { timeout: 20_000 }).toEqual(['\\Seen'])
  })

  it('a reply all leaves as one message to every To and Cc recipient through the account\'s server, and a copy lands in its Sent folder', async () => {
    const subject = `to several ${crypto.randomUUID()}`
    const { status: code, body } = await compose({ subject, to: 'ann@example.org, bob@example.net', cc: 'carol@example.com; dan@example.edu' })
    expect(code).toBe(201)
    const message = await submitted(smtp, subject)
    expect(message).toMatchObject({ user: address, from: address, to: ['ann@example.org', 'bob@example.net', 'carol@example.com', 'dan@example.edu'] })
    expect(smtp.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))).toHaveLength(1)
    const parsed = await simpleParser(message.raw)
    expect(parsed.to && !Array.isArray(parsed.to) && parsed.to.value.map((a) => a.address)).toEqual(['ann@example.org', 'bob@example.net'])
    expect(parsed.cc && !Array.isArray(parsed.cc) && parsed.cc.value.map((a) => a.address)).toEqual(['carol@example.com', 'dan@example.edu'])
    await untilStatus(body.jobId, 'sent')
    await expect.poll(async () => (await dovecot.flags(address, 'Sent')).get(subject), { timeout: 20_000 }).toEqual(['\\Seen'])
  })

  it('a recipient its server refuses does not stop the others: sent once, the status names it with the reply', async () => {
    smtp.refuse.set('gone@example.net', 550)
    try {
      const subject = `partly ${crypto.randomUUID()}`
      const { body } = await compose({ subject, to: 'ann@example.org', cc: 'gone@example.net' })
      expect((await submitted(smtp, subject)).to).toEqual(['ann@example.org'])
      await untilStatus(body.jobId, 'sent')
      expect((await status(body.jobId)).lastError).toBe('Sent, but not delivered to gone@example.net (550 5.1.1 <gone@example.net>: no such user)')
    } finally {
      smtp.refuse.clear()
    }
  })

  it('a recipient its server defers (451) while it takes the others gets the same message later, alone, and the Sent folder one copy', async () => {
    smtp.refuse.set('bob@example.net', 451)
    const subject = `deferred ${crypto.randomUUID()}`
    let jobId: string
    try {
      jobId = (await compose({ subject, to: 'ann@example.org, bob@example.net', cc: 'carol@example.com' })).body.jobId
      expect((await submitted(smtp, subject)).to).toEqual(['ann@example.org', 'carol@example.com'])
      await expect.poll(() => status(jobId), { timeout: 30_000, interval: 100 }).toMatchObject({
        status: 'retrying', messageId: `<${jobId}@mailbox.test>`,
        lastError: 'Sent to 2 of 3; retrying bob@example.net (server said 451 5.1.1 <bob@example.net>: no such user)',
      })
    } finally {
      smtp.refuse.clear()
    }
    await untilStatus(jobId, 'sent')
    expect(await status(jobId)).toMatchObject({ lastError: null, messageId: `<${jobId}@mailbox.test>` })
    const copies = smtp.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))
    expect(copies.map((m) => m.to)).toEqual([['ann@example.org', 'carol@example.com'], ['bob@example.net']])
    expect(copies[1].raw.equals(copies[0].raw)).toBe(true) // the same bytes: Message-ID, headers, To/Cc, body
    expect(await sentCopies(subject)).toBe(1)
  })

  it('a mailbox removed between the first attempt and the retry of a deferred recipient: sent, naming that one, and sent to nobody again', async () => {
    const otherId = await sendingAccount(`removed-${Date.now()}@mailbox.test`)
    const ann = `ann-${crypto.randomUUID().slice(0, 8)}@example.org`
    const subject = `removed ${crypto.randomUUID()}`
    smtp.refuse.set('bob@example.net', 451)
    try {
      const { body } = await compose({ subject, to: `${ann}, bob@example.net`, fromProviderId: otherId })
      await expect.poll(() => status(body.jobId), { timeout: 30_000, interval: 100 }).toMatchObject({ status: 'retrying', messageId: `<${body.jobId}@mailbox.test>` })
      expect((await client.json(client.delete(`/api/email-providers/${otherId}`))).status).toBe(200)
      await expect.poll(() => status(body.jobId), { timeout: 30_000, interval: 100 }).toMatchObject({
        status: 'sent', messageId: `<${body.jobId}@mailbox.test>`, lastError: 'Sent, but not delivered to bob@example.net (The sending alias or mailbox was removed)',
      })
    } finally {
      smtp.refuse.clear()
    }
    expect(smtp.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).map((m) => m.to)).toEqual([[ann]])
    expect(env.relay.messages.some((m) => m.raw.includes(subject))).toBe(false)
  })

  it('a retry of a deferred recipient whose server refuses the connection is tried again later, to that one alone', async () => {
    const otherId = await sendingAccount(`unreachable-${Date.now()}@mailbox.test`)
    const closed = await startMailboxSmtp(dovecot.certificates, 'tls')
    await closed.close() // its port now refuses connections
    const ann = `ann-${crypto.randomUUID().slice(0, 8)}@example.org`
    const subject = `unreachable ${crypto.randomUUID()}`
    smtp.refuse.set('bob@example.net', 451)
    let jobId: string
    try {
      jobId = (await compose({ subject, to: `${ann}, bob@example.net`, fromProviderId: otherId })).body.jobId
      await expect.poll(() => status(jobId), { timeout: 30_000, interval: 100 }).toMatchObject({ status: 'retrying', lastError: expect.stringMatching(/^Sent to 1 of 2; retrying bob@example\.net \(server said 451/) })
      await setSmtp({ host: '127.0.0.1', port: closed.port, security: 'tls' }, otherId)
      await expect.poll(async () => (await status(jobId)).lastError, { timeout: 30_000, interval: 100 }).toMatch(/^Sent to 1 of 2; retrying bob@example\.net \(.*refused the connection/)
    } finally {
      smtp.refuse.clear()
    }
    await setSmtp({ host: '127.0.0.1', port: smtp.port, security: 'tls' }, otherId)
    await untilStatus(jobId, 'sent')
    expect(await status(jobId)).toMatchObject({ lastError: null, messageId: `<${jobId}@mailbox.test>` })
    expect(smtp.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).map((m) => m.to)).toEqual([[ann], ['bob@example.net']])
  })

  it('a refused login fails the job at once with a reason the compose page shows, and sends nothing', async () => {
    const saved = await setSmtp({ host: '127.0.0.1', port: smtp.port, security: 'tls', username: address, password: 'not-the-password' })
    expect(saved.body.provider.smtp.username).toBe(address)
    const refusedBefore = smtp.refusedLogins.length
    const subject = `refused ${crypto.randomUUID()}`
    const { body } = await compose({ subject })
    await untilStatus(body.jobId, 'failed')
    const failed = await status(body.jobId)
    expect(failed.lastError).toMatch(/refused the mailbox's login/)
    expect(failed.lastError).not.toContain('not-the-password')
    expect(failed.currentRetries).toBe(0)
    expect(smtp.refusedLogins.length).toBe(refusedBefore + 1)
    expect(smtp.messages.some((m) => m.raw.includes(subject))).toBe(false)
    const [row] = await env.db.sql`select content from email_jobs where id = ${body.jobId}`
    expect(row.content).toBeNull()
  })

  it('a login of its own on a STARTTLS port: AUTH only after the upgrade', async () => {
    starttls.users.set('smtp-user', 'smtp-pass')
    await setSmtp({ host: '127.0.0.1', port: starttls.port, security: 'starttls', username: 'smtp-user', password: 'smtp-pass' })
    // the user name kept, the password left out: the stored one is kept
    const again = await setSmtp({ host: '127.0.0.1', port: starttls.port, security: 'starttls', username: 'smtp-user' })
    expect(again.status).toBe(200)
    const subject = `starttls ${crypto.randomUUID()}`
    const { body } = await compose({ subject })
    const message = await submitted(starttls, subject)
    expect(message).toMatchObject({ user: 'smtp-user', secure: true, from: address })
    await untilStatus(body.jobId, 'sent')
  })

  it('a server that offers no STARTTLS gets no login: the job fails saying so', async () => {
    // the plain relay stand-in: no STARTTLS, no AUTH
    await setSmtp({ host: '127.0.0.1', port: env.relay.port, security: 'starttls' })
    const subject = `no tls ${crypto.randomUUID()}`
    const { body } = await compose({ subject })
    await untilStatus(body.jobId, 'failed')
    expect((await status(body.jobId)).lastError).toMatch(/did not offer STARTTLS/)
    expect(env.relay.messages.some((m) => m.raw.includes(subject))).toBe(false)
  })

  it('an Outlook account signs in to SMTP with its OAuth2 access token (XOAUTH2)', async () => {
    const outlook = `outlook-${Date.now()}@mailbox.test`
    const id = crypto.randomUUID()
    const me = (await client.json(client.get('/api/auth/session'))).body.user.id
    await insertEmailProvider(env.db.sql, {
      id, userId: me, provider: 'outlook', email: outlook,
      credentials: sealCredentials(env.config, id, { email: outlook, host: dovecot.host, port: dovecot.port, secure: true, tokenType: 'oauth2', accessToken: 'access-token-1', refreshToken: 'refresh', expiresAt: Date.now() + 3_600_000 }),
    })
    const preset = (await client.json(client.get('/api/email-providers'))).body.providers.find((p: { id: string }) => p.id === id)
    expect(preset.smtp).toEqual({ host: 'smtp.office365.com', port: 587, security: 'starttls', preset: true, username: null })
    smtp.tokens.set('access-token-1', outlook)
    await setSmtp({ host: '127.0.0.1', port: smtp.port, security: 'tls' }, id)
    const subject = `xoauth2 ${crypto.randomUUID()}`
    const { body } = await compose({ subject, fromProviderId: id })
    const message = await submitted(smtp, subject)
    expect(message).toMatchObject({ user: outlook, method: 'XOAUTH2', from: outlook })
    await untilStatus(body.jobId, 'sent')
  })

  it('like every send: a server that refuses connections is tried again (retrying, the reason shown) until it answers; Undo cancels one not yet gone', async () => {
    const closed = await startMailboxSmtp(dovecot.certificates, 'tls')
    await closed.close() // its port now refuses connections
    await setSmtp({ host: '127.0.0.1', port: closed.port, security: 'tls' })
    const subject = `retried ${crypto.randomUUID()}`
    const { body } = await compose({ subject })
    await expect.poll(async () => (await status(body.jobId)).lastError, { timeout: 30_000, interval: 100 }).toMatch(/refused the connection/)
    expect((await status(body.jobId)).status).toMatch(/^(retrying|sending)$/)
    // the user fixes the port: the next try goes through
    await setSmtp({ host: '127.0.0.1', port: smtp.port, security: 'tls' })
    await submitted(smtp, subject)
    await untilStatus(body.jobId, 'sent')
    expect((await status(body.jobId)).currentRetries).toBeGreaterThanOrEqual(1)

    const later = `undone ${crypto.randomUUID()}`
    const queued = await compose({ subject: later, scheduledAt: new Date(Date.now() + 60_000).toISOString() })
    expect((await client.json(client.post(`/api/email-jobs/${queued.body.jobId}/cancel`))).body).toMatchObject({ success: true })
    expect((await status(queued.body.jobId)).status).toBe('cancelled')
    expect(smtp.messages.some((m) => m.raw.includes(later))).toBe(false)
  })

  it('another user\'s mailbox is neither a From nor settable; bad settings are refused', async () => {
    const other = new ApiClient(env.app())
    await other.register()
    const sent = await other.json(other.post('/api/email-jobs', { to: 'friend@example.org', subject: 'x', body: 'y', fromProviderId: providerId }))
    expect(sent.status).toBe(400)
    expect((await setSmtp({ host: 'evil.example', port: 25, security: 'tls' }, providerId, other)).status).toBe(404)
    for (const bad of [
      { host: 'smtp.example.org\r\nRCPT TO:<x@y>', port: 465, security: 'tls' },
      { host: 'smtp.example.org', port: 70000, security: 'tls' },
      { host: 'smtp.example.org', port: 465, security: 'none' },
      { host: 'smtp.example.org', port: 465, security: 'tls', username: 'someone' },
      { host: 'smtp.example.org', port: 465, security: 'tls', password: 'only-a-password' },
    ]) {
      const res = await setSmtp(bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.message).toEqual(expect.any(String))
    }
    const both = await client.json(client.post('/api/email-jobs', { to: 'friend@example.org', subject: 'x', body: 'y', fromProviderId: providerId, fromAliasId: crypto.randomUUID() }))
    expect(both.status).toBe(400)
  })
})
