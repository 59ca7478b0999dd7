// The webmail's server side against a private Dovecot: adding accounts (the login is the check),
// initial sync of varied mail, incremental sync with and without CONDSTORE/QRESYNC, UIDVALIDITY,
// write-back seen by another IMAP client, and the failures a user sees.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dueProviderIds, getProviderForSync, insertEmailProvider } from '../../db/email-providers.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, imapCredentials, syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { createTestApp, testConfig, type TestApp } from '../../scripts/testing/test-app.ts'
import { ImapConnectError } from '../../lib/imap-connect.ts'
import { sealCredentials } from '../../lib/mailbox-credentials.ts'
import { syncProvider, type SyncDeps } from './sync-mailbox.ts'
import { startSyncWorker } from './sync-worker.ts'

const run = dovecotAvailable()

interface Env { t: TestApp; stop: () => Promise<void>; user: ApiClient }

async function startEnv(options: { imapCa?: string; env?: Record<string, string> } = {}): Promise<Env> {
  const t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true', ...options.env })
  const deps: SyncDeps = { sql: t.db.sql, boss: t.boss, config: t.config, imapCa: options.imapCa }
  const stop = await startSyncWorker(t.boss, deps, { concurrency: 2, intervalSeconds: 3600, pollSeconds: 1 })
  const user = new ApiClient(t.app)
  await user.register()
  return { t, stop, user }
}

async function allEmails(user: ApiClient, providerId = 'all') {
  const emails: any[] = []
  for (let offset = 0; ; offset += 200) {
    const page = (await user.json(user.get(`/api/emails?providerId=${providerId}&limit=200&offset=${offset}`))).body.emails
    emails.push(...page)
    if (page.length < 200) return emails
  }
}

describe.skipIf(!run)('adding an account and the initial sync', () => {
  let dovecot: Dovecot
  let env: Env
  beforeAll(async () => {
    dovecot = await startDovecot()
    env = await startEnv({ imapCa: dovecot.ca })
  })
  afterAll(async () => {
    await env?.stop()
    await env?.t.close()
    await dovecot?.stop()
  })

  it('syncs a few hundred varied messages: sender, charsets, HTML, attachments, threads, malformed mail', async () => {
    const password = dovecot.addUser('varied@example.test')
    const messages = Array.from({ length: 320 }, (_, i) => sampleMail(i))
    dovecot.writeMessages('varied@example.test', messages.slice(0, 300).map((m, i) => ({ raw: m.raw, flags: i % 3 === 0 ? 'S' : i % 10 === 1 ? 'F' : '' })))
    await dovecot.append('varied@example.test', messages.slice(300).map((m) => ({ raw: m.raw })))
    const { user } = env
    const { providerId, jobId } = await addImapAccount(user, dovecot, 'varied@example.test', password)
    const job = await syncJobFinished(user, providerId, jobId)
    expect(job).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 320 }, error: null })
    expect(job.provider).toMatchObject({ state: 'idle', progressDone: 320, progressTotal: 320, lastError: null, host: dovecot.host, port: dovecot.port })
    expect(job.provider.folders.map((f: any) => f.path).sort()).toEqual(['Archive', 'INBOX', 'Sent', 'Trash'])
    expect(job.provider.folders.find((f: any) => f.path === 'INBOX')).toMatchObject({ enabled: true, messageCount: 320, stored: 320 })
    expect(JSON.stringify((await user.json(user.get('/api/email-providers'))).body)).not.toContain(password)

    const counts = (await user.json(user.get('/api/emails/counts'))).body
    expect(counts).toMatchObject({ success: true, total: 320, unread: 320 - 100, starred: messages.slice(0, 300).filter((_, i) => i % 3 !== 0 && i % 10 === 1).length })
    const page = (await user.json(user.get(`/api/emails?providerId=${providerId}&limit=50&offset=0&category=inbox`))).body.emails
    expect(page).toHaveLength(50)
    const times = page.map((e: any) => Date.parse(e.receivedAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const emails = await allEmails(user)
    expect(new Set(emails.map((e) => e.id)).size).toBe(320)
    const bySubject = (s: string) => emails.find((e) => e.subject === s)

    expect(bySubject('Café crème 3')).toMatchObject({ fromAddress: 'sender3@sender.example', fromName: 'Sender 3', toAddress: 'owner@veilmail.test' })
    const latin = (await user.json(user.get(`/api/emails/${bySubject('Café crème 3').id}`))).body.email
    expect(latin.body).toContain('Déjà vu à Zürich 3.')
    expect(bySubject('Привет, 世界 4')).toBeDefined()
    const html = (await user.json(user.get(`/api/emails/${bySubject('HTML newsletter 9').id}`))).body.email
    expect(html.html).toContain('<h1>Issue 9</h1>')
    expect(html.body).toContain('Text part 9.')
    expect(html.preview.length).toBeLessThanOrEqual(150)
    expect(bySubject('HTML newsletter 9').preview.length).toBeLessThanOrEqual(100)

    const invoice = bySubject('Invoice 10 attached')
    expect(invoice.hasAttachments).toBe(true)
    const detail = (await user.json(user.get(`/api/emails/${invoice.id}`))).body.email
    expect(detail.attachments).toMatchObject([{ filename: 'invoice-10.pdf', contentType: 'application/pdf' }])
    const download = await user.get(detail.attachments[0].url)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('application/pdf')
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice-10\.pdf"/)
    const bytes = Buffer.from(await download.arrayBuffer())
    expect(bytes.subarray(0, 8).toString()).toBe('%PDF-1.4')
    expect(bytes.length).toBe(detail.attachments[0].size)

    // a reply joins its parent's conversation (In-Reply-To), oldest first
    const reply = (await user.json(user.get(`/api/emails/${bySubject('Re: Plain message 8').id}`))).body.email
    expect(reply.conversationEmails.map((e: any) => e.subject)).toEqual(['Plain message 8', 'Re: Plain message 8'])
    // malformed and header-less mail is kept, readable as far as it goes
    expect(emails.filter((e) => e.subject.startsWith('=?UTF-8?B?broken'))).toHaveLength(40)
    expect(emails.filter((e) => e.subject === '' && e.fromAddress === '')).toHaveLength(40)

    // bodies, previews and attachments are sealed at rest
    const [raw] = await env.t.db.sql<{ dump: string }[]>`
      select string_agg(encode(coalesce(body_text, ''), 'escape') || encode(coalesce(body_html, ''), 'escape') || encode(coalesce(preview, ''), 'escape'), '') as dump
      from received_emails`
    expect(raw.dump).not.toContain('Text part')
    expect(raw.dump).not.toContain('Hello number')
    const [att] = await env.t.db.sql<{ content: Buffer }[]>`select content from received_attachments limit 1`
    expect(att.content.includes(Buffer.from('%PDF'))).toBe(false)
  })

  it('streams a 25 MB message into the parser and keeps its attachment whole', async () => {
    const login = 'large@example.test'
    const password = dovecot.addUser(login)
    const content = Buffer.alloc(18 * 1024 * 1024, 7)
    for (let i = 0; i < content.length; i += 4096) content.writeUInt32BE(i, i)
    const b64 = content.toString('base64').replace(/(.{76})/g, '$1\r\n')
    const raw = `From: Big <big@sender.example>\r\nTo: owner@veilmail.test\r\nSubject: A large one\r\nMessage-ID: <large@sender.example>\r\n` +
      `MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="L"\r\n\r\n--L\r\nContent-Type: text/plain\r\n\r\nSee the file.\r\n` +
      `--L\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="big.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64}\r\n--L--\r\n`
    expect(raw.length).toBeGreaterThan(24 * 1024 * 1024)
    dovecot.writeMessages(login, [{ raw: sampleMail(0).raw }, { raw }, { raw: sampleMail(1).raw }])
    const { user } = env
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, providerId, jobId, 120_000)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 } })
    const large = (await allEmails(user, providerId)).find((e) => e.subject === 'A large one')
    const detail = (await user.json(user.get(`/api/emails/${large.id}`))).body.email
    expect(detail.body).toContain('See the file.')
    expect(detail.attachments).toMatchObject([{ filename: 'big.bin', size: content.length }])
    const download = Buffer.from(await (await user.get(detail.attachments[0].url)).arrayBuffer())
    expect(download.equals(content)).toBe(true)
  }, 180_000)

  it('a connection cut mid-pipeline: the store in flight is committed before the failure, the cursor is the last stored UID, the next sync fetches only the rest', async () => {
    const login = 'cut@example.test'
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: 400 }, (_, i) => ({ raw: sampleMail(i).raw })))
    const { sql } = env.t.db
    // an account of its own, synced here (not by the worker), batches of 50
    const { user: owner } = await new ApiClient(env.t.app).register()
    const id = crypto.randomUUID()
    await insertEmailProvider(sql, {
      id, userId: owner.id, provider: 'other', email: login,
      credentials: sealCredentials(env.t.config, id, { email: login, password, host: dovecot.host, port: dovecot.port, secure: true }),
    })
    const deps: SyncDeps = { sql, boss: env.t.boss, config: env.t.config, imapCa: dovecot.ca }
    // the insert of UID 101 (the third batch) waits on a lock this test holds
    const HOLD = 4_246_002
    await sql.unsafe(`
      create function test_hold_cut() returns trigger language plpgsql as $$
      begin if new.provider_id = '${id}' and new.uid > 100 then perform pg_advisory_xact_lock_shared(${HOLD}); end if; return new; end $$;
      create trigger test_hold_cut before insert on received_emails for each row execute function test_hold_cut();`)
    const holder = await sql.reserve()
    try {
      await holder`select pg_advisory_lock(${HOLD})`
      const first = syncProvider(deps, (await getProviderForSync(sql, id))!).then(() => undefined, (error: unknown) => error)
      await expect.poll(async () => (await sql`select 1 from pg_locks where locktype = 'advisory' and objid = ${HOLD} and not granted`).length, { timeout: 60_000 }).toBe(1)
      // the server drops the connection while the third batch is being stored and later ones are fetched or parsed
      await dovecot.kick(login)
      await holder`select pg_advisory_unlock(${HOLD})`
      expect(await first).toBeInstanceOf(ImapConnectError)
    } finally {
      holder.release()
      await sql.unsafe('drop trigger test_hold_cut on received_emails; drop function test_hold_cut()')
    }
    // nothing of that sync is still being written: the rows are 1..cursor, whole batches, the held one among them
    const stored = await sql<{ id: string; uid: number }[]>`select id, uid::float8 as uid from received_emails where provider_id = ${id} order by uid`
    const [folder] = await sql<{ lastUid: number }[]>`select last_uid::int from mailbox_folders where provider_id = ${id} and path = 'INBOX'`
    expect(folder.lastUid % 50).toBe(0)
    expect(folder.lastUid).toBeGreaterThanOrEqual(150)
    expect(folder.lastUid).toBeLessThan(400)
    expect(stored.map((r) => r.uid)).toEqual(Array.from({ length: folder.lastUid }, (_, i) => i + 1))

    const again = await syncProvider(deps, (await getProviderForSync(sql, id))!)
    expect(again).toEqual({ added: 400 - folder.lastUid, fetched: 400 - folder.lastUid, more: false })
    const after = await sql<{ id: string; uid: number }[]>`select id, uid::float8 as uid from received_emails where provider_id = ${id} order by uid`
    expect(after.map((r) => r.uid)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1))
    expect(after.slice(0, stored.length).map((r) => r.id)).toEqual(stored.map((r) => r.id))
  }, 120_000)

  it('refuses a wrong password with a clear reason and stops the schedule for that account', async () => {
    dovecot.addUser('wrongpw@example.test', 'the-right-one')
    const { user } = env
    const { providerId, jobId } = await addImapAccount(user, dovecot, 'wrongpw@example.test', 'not-the-password')
    const job = await syncJobFinished(user, providerId, jobId)
    expect(job.status).toBe('failed')
    expect(job.error).toBe('The mail server refused the e-mail address or password. Check them (Gmail and Yahoo need an app password).')
    expect(job.provider).toMatchObject({ state: 'error', needsAttention: true, lastError: job.error })
    expect(await dueProviderIds(env.t.db.sql, 0, 1000)).not.toContain(providerId)
  })

  it('answers 409 for a mailbox already connected, 400 for unreadable credentials, and 404 for another user', async () => {
    const { user } = env
    dovecot.addUser('twice@example.test', 'pw-twice')
    const first = await addImapAccount(user, dovecot, 'twice@example.test', 'pw-twice')
    const again = await user.json(user.post('/api/email-providers', {
      provider: 'other', email: 'TWICE@example.test', encryptedCredentials: imapCredentials({ email: 'twice@example.test', password: 'x', host: dovecot.host, port: dovecot.port }),
    }))
    expect(again).toMatchObject({ status: 409, body: { message: 'This mailbox is already connected.' } })
    const junk = await user.json(user.post('/api/email-providers', { provider: 'other', email: 'a@example.test', encryptedCredentials: 'not base64 json!' }))
    expect(junk.status).toBe(400)
    const noHost = await user.json(user.post('/api/email-providers', { provider: 'other', email: 'a@example.test', encryptedCredentials: imapCredentials({ email: 'a@example.test', password: 'p', host: '', port: 993 }) }))
    expect(noHost.body.message).toBe('Please enter the IMAP server address.')
    const noPassword = await user.json(user.post('/api/email-providers', { provider: 'gmail', email: 'a@gmail.example', encryptedCredentials: imapCredentials({ email: 'a@gmail.example', password: '', host: '', port: 993 }) }))
    expect(noPassword.body.message).toBe('Please fill in all required fields.')
    const other = new ApiClient(env.t.app)
    await other.register()
    expect((await other.post(`/api/email-providers/${first.providerId}/sync`)).status).toBe(404)
    expect((await other.get(`/api/email-providers/${first.providerId}/sync-jobs/${first.jobId}`)).status).toBe(404)
    expect((await other.json(other.get('/api/email-providers'))).body.providers).toEqual([])
    expect(await syncJobFinished(user, first.providerId, first.jobId)).toMatchObject({ status: 'done' })
  })

  it('deletes an account with its mail and its waiting jobs in one go', async () => {
    const { user, t } = env
    const password = dovecot.addUser('leaving@example.test')
    dovecot.writeMessages('leaving@example.test', [0, 1, 2].map((i) => ({ raw: sampleMail(i).raw })))
    const { providerId, jobId } = await addImapAccount(user, dovecot, 'leaving@example.test', password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 } })
    const list = await allEmails(user, providerId)
    expect(list).toHaveLength(3)
    // a write-back waiting for this account
    expect((await user.patch(`/api/emails/${list[0].id}`, { isStarred: true })).status).toBe(200)
    expect((await user.delete(`/api/email-providers/${providerId}`)).status).toBe(200)
    expect(await t.db.sql`select 1 from received_emails where provider_id = ${providerId}`).toHaveLength(0)
    expect(await t.db.sql`select 1 from pgboss.job where singleton_key = ${providerId} and state in ('created', 'retry')`).toHaveLength(0)
    expect((await user.get(`/api/emails/${list[0].id}`)).status).toBe(404)
    expect((await user.delete(`/api/email-providers/${providerId}`)).status).toBe(404)
  })
})

describe.skipIf(!run)('connection failures the user sees', () => {
  let dovecot: Dovecot
  let env: Env
  let silent: net.Server
  let connections = 0
  beforeAll(async () => {
    dovecot = await startDovecot()
    // no CA: Dovecot's certificate cannot be verified; a one-second IMAP timeout
    env = await startEnv({ env: { IMAP_TIMEOUT_SECONDS: '1' } })
    silent = net.createServer((socket) => { connections++; socket.on('error', () => {}) })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    await env?.stop()
    await env?.t.close()
    await dovecot?.stop()
    silent?.close()
  })

  it('reports an unverifiable certificate, never logging in without it', async () => {
    const password = dovecot.addUser('tlsuser@example.test')
    const { providerId, jobId } = await addImapAccount(env.user, dovecot, 'tlsuser@example.test', password)
    const job = await syncJobFinished(env.user, providerId, jobId)
    expect(job).toMatchObject({ status: 'failed', error: 'The secure connection to the mail server failed: its certificate could not be verified.' })
    expect(job.provider.state).toBe('error')
  })

  it('reports a host that does not exist', async () => {
    const { providerId, jobId } = await addImapAccount(env.user, { host: 'no-such-host.invalid', port: 993 }, 'nohost@example.test', 'pw')
    const job = await syncJobFinished(env.user, providerId, jobId)
    expect(job).toMatchObject({ status: 'failed', error: 'The mail server no-such-host.invalid could not be found. Check the server name.' })
  })

  it('reports a server that never answers as a timeout, to be retried', async () => {
    const { port } = silent.address() as net.AddressInfo
    const { providerId, jobId } = await addImapAccount(env.user, { host: '127.0.0.1', port }, 'silent@example.test', 'pw')
    await expect.poll(async () => (await env.user.json(env.user.get('/api/email-providers'))).body.providers.find((p: any) => p.id === providerId)?.lastError, { timeout: 30_000 })
      .toBe('The mail server did not answer in time. It will be tried again.')
    const job = (await env.user.json(env.user.get(`/api/email-providers/${providerId}/sync-jobs/${jobId}`))).body
    expect(job.status).toBe('queued') // waiting for its retry
    expect(job.provider.needsAttention).toBe(false)
    expect(connections).toBeGreaterThan(0)
  })

  it('refuses a private address without ALLOW_PRIVATE_NETWORKS and never connects to it', async () => {
    const before = connections
    const { port } = silent.address() as net.AddressInfo
    const config = testConfig({ DATABASE_URL: env.t.db.url, ALLOW_PRIVATE_NETWORKS: 'false' })
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '2130706433']) {
      const id = crypto.randomUUID()
      const { sealCredentials } = await import('../../lib/mailbox-credentials.ts')
      const provider = {
        ...((await getProviderForSync(env.t.db.sql, (await env.t.db.sql<{ id: string }[]>`select id from email_providers limit 1`)[0].id))!),
        id, credentials: sealCredentials(config, id, { email: 'x@example.test', password: 'pw', host, port, secure: true }),
      }
      const error = await syncProvider({ sql: env.t.db.sql, boss: env.t.boss, config }, provider).catch((e) => e)
      expect(error).toBeInstanceOf(ImapConnectError)
      expect(error.message).toBe('The mail server is on a private or local network address, which is not allowed.')
    }
    expect(connections).toBe(before)
  })
})
