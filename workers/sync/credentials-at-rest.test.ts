// A password account's credentials (issue #13: "sealed at rest, never returned to the browser,
// never logged"): the stored column, every row of the database, every API answer about the account
// and every log line of the API, the sync and the write-back are searched for the password, on
// the way that works and on the ways that fail (a wrong password, a password changed on the server).
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onLogEvent } from '../../lib/log.ts'
import type { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, imapCredentials, syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'
import type { TestApp } from '../../scripts/testing/test-app.ts'
import { openCredentials } from '../../lib/mailbox-credentials.ts'

const run = dovecotAvailable()

const distinctive = (label: string) => `${label}-${randomBytes(8).toString('hex')}-Sealed`

/** How a password could show: as is, in base64, as the hex Postgres prints a bytea in. */
const leakForms = (password: string) => [password, Buffer.from(password).toString('base64').replace(/=+$/, ''), Buffer.from(password).toString('hex')]

describe.skipIf(!run)('a password account\'s credentials at rest, in answers and in logs', () => {
  let env: SyncEnv
  let dovecot: Dovecot
  let t: TestApp
  let user: ApiClient
  // every API answer body and every log line (events at any level, and whatever reaches the console) of the suite
  const answers: string[] = []
  const logLines: string[] = []
  const events: { event: string; kind?: unknown; provider?: unknown }[] = []
  const restore: (() => void)[] = []

  const good = { email: 'sealed@example.test', password: distinctive('Good') }
  const wrong = { email: 'refused@example.test', password: distinctive('Wrong') }
  const changed = distinctive('Changed') // the password the server is given later, which the account does not know
  const secrets = () => [good.password, wrong.password, changed]
  let goodId: string
  let wrongId: string

  beforeAll(async () => {
    restore.push(onLogEvent((level, event, fields) => {
      logLines.push(JSON.stringify({ level, event, ...fields }))
      events.push({ event, kind: fields.kind, provider: fields.provider })
    }))
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        logLines.push(String(chunk))
        return (write as (...a: unknown[]) => boolean).call(stream, chunk, ...rest)
      }) as typeof stream.write
      restore.push(() => { stream.write = write })
    }
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const original = console[method]
      console[method] = (...args: unknown[]) => {
        logLines.push(args.map((a) => (a instanceof Error ? `${a.stack} ${JSON.stringify(a)}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '))
        original.apply(console, args)
      }
      restore.push(() => { console[method] = original })
    }
    env = await startSyncEnv()
    ;({ dovecot, t, user } = env)
    // every answer the browser gets, kept as it came
    const request = user.request.bind(user)
    user.request = async (...args: Parameters<ApiClient['request']>) => {
      const res = await request(...args)
      answers.push(await res.clone().text())
      return res
    }
  })
  afterAll(async () => {
    await env?.close()
    for (const undo of restore.reverse()) undo()
  })

  const sealedColumn = async (providerId: string) =>
    (await t.db.sql<{ credentials: Buffer }[]>`select credentials from email_providers where id = ${providerId}`)[0].credentials

  /** "schema.table" of every table holding a row whose text shows the string. */
  async function tablesShowing(text: string): Promise<string[]> {
    const tables = await t.db.sql<{ schemaname: string; tablename: string }[]>`
      select schemaname, tablename from pg_tables where schemaname in ('public', 'pgboss') order by 1, 2`
    const found: string[] = []
    for (const { schemaname, tablename } of tables) {
      const [{ count }] = await t.db.sql<{ count: number }[]>`
        select count(*)::int as count from ${t.db.sql(schemaname)}.${t.db.sql(tablename)} r where position(${text} in r::text) > 0`
      if (count > 0) found.push(`${schemaname}.${tablename}`)
    }
    return found
  }

  it('seals the credentials in the database: neither the password nor what the browser sent is stored', async () => {
    dovecot.addUser(good.email, good.password)
    dovecot.writeMessages(good.email, Array.from({ length: 3 }, (_, i) => ({ raw: sampleMail(i * 8).raw })))
    const sent = imapCredentials({ email: good.email, password: good.password, host: dovecot.host, port: dovecot.port })
    const added = await addImapAccount(user, dovecot, good.email, good.password)
    goodId = added.providerId
    expect(await syncJobFinished(user, goodId, added.jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 }, error: null })

    const column = await sealedColumn(goodId)
    for (const form of [...leakForms(good.password), sent, Buffer.from(sent, 'base64').toString('utf8')]) {
      expect(column.includes(Buffer.from(form))).toBe(false)
    }
    // sealed, not dropped: the server opens it to the password it was given, bound to this account
    expect(openCredentials(t.config, { id: goodId, credentials: column })).toMatchObject({ email: good.email, password: good.password })
    expect(() => openCredentials(t.config, { id: crypto.randomUUID(), credentials: column })).toThrow()
    // nowhere else in the database either (job payloads, sync jobs, logs of failures)
    for (const form of [...leakForms(good.password), sent]) expect(await tablesShowing(form)).toEqual([])
    // (the search does find what is there: the address is stored in the clear)
    expect(await tablesShowing(good.email)).toContain('public.email_providers')
  })

  it('never answers the password: the new account, the list, its sync jobs and the folder switch', async () => {
    const listed = (await user.json(user.get('/api/email-providers'))).body.providers.find((p: { id: string }) => p.id === goodId)
    expect(listed).toMatchObject({ email: good.email, host: dovecot.host, port: dovecot.port, secure: true })
    expect(Object.keys(listed)).not.toContain('password')
    expect(Object.keys(listed)).not.toContain('credentials')
    expect(await syncNow(user, goodId)).toMatchObject({ status: 'done', provider: { id: goodId } })
    expect((await user.patch(`/api/email-providers/${goodId}/folders`, { path: 'Archive', enabled: true })).status).toBe(200)
    // the answers were read: the account's address is in them, its password is not
    const all = answers.join('\n')
    expect(all).toContain(good.email)
    for (const form of leakForms(good.password)) expect(all).not.toContain(form)
  })

  it('a wrong password is refused with a sentence that does not quote it, in the answer and in the database', async () => {
    dovecot.addUser(wrong.email) // the server knows another password
    const added = await addImapAccount(user, dovecot, wrong.email, wrong.password)
    wrongId = added.providerId
    const job = await syncJobFinished(user, wrongId, added.jobId)
    expect(job).toMatchObject({ status: 'failed', provider: { id: wrongId, needsAttention: true } })
    expect(job.error).toMatch(/refused the e-mail address or password/)
    const listed = (await user.json(user.get('/api/email-providers'))).body.providers.find((p: { id: string }) => p.id === wrongId)
    expect(listed.lastError).toMatch(/refused the e-mail address or password/)

    const all = answers.join('\n')
    for (const form of leakForms(wrong.password)) expect(all).not.toContain(form)
    const column = await sealedColumn(wrongId)
    for (const form of leakForms(wrong.password)) expect(column.includes(Buffer.from(form))).toBe(false)
    expect(openCredentials(t.config, { id: wrongId, credentials: column })).toMatchObject({ password: wrong.password })
    for (const form of leakForms(wrong.password)) expect(await tablesShowing(form)).toEqual([])
  })

  it('a password changed on the server fails the write-back and the sync without showing the stored one', async () => {
    dovecot.addUser(good.email, changed)
    const [email] = await t.db.sql<{ id: string }[]>`select id from received_emails where provider_id = ${goodId} order by uid limit 1`
    expect((await user.patch(`/api/emails/${email.id}`, { isStarred: true })).status).toBe(200)
    await expect.poll(() => events.some((e) => e.event === 'mailbox_changes.failed' && e.provider === goodId && e.kind === 'auth'), { timeout: 30_000, interval: 200 }).toBe(true)
    const job = await syncNow(user, goodId)
    expect(job).toMatchObject({ status: 'failed', provider: { needsAttention: true } })
    expect(job.error).toMatch(/refused the e-mail address or password/)
    const all = answers.join('\n')
    for (const secret of secrets()) for (const form of leakForms(secret)) expect(all).not.toContain(form)
    for (const secret of secrets()) for (const form of leakForms(secret)) expect(await tablesShowing(form)).toEqual([])
  })

  it('never logs a password: not in the API, the sync or the write-back, not when a login fails', () => {
    // the failures were logged, and captured here
    expect(events.some((e) => e.event === 'sync.failed' && e.provider === wrongId && e.kind === 'auth')).toBe(true)
    expect(events.some((e) => e.event === 'sync.failed' && e.provider === goodId && e.kind === 'auth')).toBe(true)
    expect(events.some((e) => e.event === 'mailbox_changes.failed' && e.provider === goodId && e.kind === 'auth')).toBe(true)
    expect(events.some((e) => e.event === 'sync.done' && e.provider === goodId)).toBe(true)
    const all = logLines.join('\n')
    for (const secret of secrets()) for (const form of leakForms(secret)) expect(all).not.toContain(form)
  })
})
