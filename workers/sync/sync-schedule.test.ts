// What brings a connected mailbox up to date when nobody presses Sync and no IDLE connection is
// open (issue #13): the schedule, which queues every active account once its last sync is
// SYNC_INTERVAL_SECONDS old but never one whose login was refused, and the sync a write-back
// queues so that what another client changed meanwhile comes in too. Against a private Dovecot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { startSyncWorker } from './sync-worker.ts'

const run = dovecotAvailable()

const plain = (subject: string) => ({
  raw: `From: Friend <friend@elsewhere.example>\r\nTo: owner@veilmail.test\r\nSubject: ${subject}\r\nMessage-ID: <${crypto.randomUUID()}@elsewhere.example>\r\n\r\nHello.\r\n`,
})

async function subjects(t: TestApp, providerId: string) {
  return (await t.db.sql<{ subject: string }[]>`select subject from received_emails where provider_id = ${providerId} order by uid`).map((r) => r.subject)
}

async function syncJobs(t: TestApp, providerId: string) {
  return t.db.sql<{ status: string }[]>`select status from mailbox_sync_jobs where provider_id = ${providerId} order by created_at`
}

describe.skipIf(!run)('the sync schedule', () => {
  let dovecot: Dovecot
  let t: TestApp
  let stop: () => Promise<void>
  let user: ApiClient
  let providerId: string
  const login = 'scheduled@example.test'

  beforeAll(async () => {
    dovecot = await startDovecot()
    // IDLE off and no watcher started: the schedule is the only thing that syncs without a Sync press
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true', SYNC_IDLE_CONNECTIONS: '0' })
    // the shortest interval the config allows (SYNC_INTERVAL_SECONDS ≥ 1); the tick follows it
    stop = await startSyncWorker(t.boss, { sql: t.db.sql, boss: t.boss, config: t.config, imapCa: dovecot.ca }, { concurrency: 2, intervalSeconds: 1, pollSeconds: 1 })
    user = new ApiClient(t.app)
    await user.register()
  })
  afterAll(async () => {
    await stop?.()
    await t?.close()
    await dovecot?.stop()
  })

  it('brings mail APPENDed on the server into Postgres with no Sync press and no IDLE', async () => {
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: 3 }, (_, i) => ({ raw: sampleMail(i).raw })))
    const added = await addImapAccount(user, dovecot, login, password)
    providerId = added.providerId
    expect(await syncJobFinished(user, providerId, added.jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 } })
    expect(await subjects(t, providerId)).toHaveLength(3)

    await dovecot.append(login, [plain('Arrived between two ticks')])
    await expect.poll(() => subjects(t, providerId), { timeout: 30_000, interval: 200 }).toContain('Arrived between two ticks')
    expect(await subjects(t, providerId)).toHaveLength(4)
    expect(t.config.syncIdle.connections).toBe(0)
  }, 60_000)

  it('leaves an account whose login was refused off the schedule while it syncs the others', async () => {
    dovecot.addUser('refused@example.test', 'the-right-one')
    const refused = await addImapAccount(user, dovecot, 'refused@example.test', 'not-the-password')
    expect(await syncJobFinished(user, refused.providerId, refused.jobId)).toMatchObject({ status: 'failed', provider: { state: 'error', needsAttention: true } })

    // Three more syncs of the good account finished after the refusal: at most two of them were
    // already queued or running then, so the schedule has ticked since, and passed the refused one by.
    const done = async () => (await syncJobs(t, providerId)).filter((j) => j.status === 'done').length
    const before = await done()
    await expect.poll(done, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(before + 3)
    expect(await syncJobs(t, refused.providerId)).toEqual([{ status: 'failed' }])
    const [row] = await t.db.sql`select state, auth_failed from email_providers where id = ${refused.providerId}`
    expect(row).toMatchObject({ state: 'error', authFailed: true })
  }, 90_000)
})

describe.skipIf(!run)('the sync after a write-back', () => {
  let env: SyncEnv
  // the schedule is an hour here (startSyncEnv) and no IDLE watcher runs: only the write-back's sync can bring changes in
  beforeAll(async () => { env = await startSyncEnv() })
  afterAll(() => env?.close())

  it('follows a star and a read written back to the server with a sync that brings in what another client changed meanwhile', async () => {
    const { dovecot, t, user } = env
    const login = 'writeback@example.test'
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, [plain('Starred here'), plain('Read here'), plain('Read elsewhere')])
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 } })
    expect(await syncJobs(t, providerId)).toEqual([{ status: 'done' }])

    // another client reads a message and a new one arrives: nothing here knows of it yet
    const other = await dovecot.client(login)
    try {
      const lock = await other.getMailboxLock('INBOX')
      try {
        await other.messageFlagsAdd('3', ['\\Seen'], { uid: true })
      } finally {
        lock.release()
      }
    } finally {
      await other.logout()
    }
    await dovecot.append(login, [plain('Arrived elsewhere')])

    const rows = await t.db.sql<{ id: string; subject: string }[]>`select id, subject from received_emails where provider_id = ${providerId} order by uid`
    const id = (subject: string) => rows.find((r) => r.subject === subject)!.id
    expect((await user.patch(`/api/emails/${id('Starred here')}`, { isStarred: true })).status).toBe(200)
    expect((await user.patch(`/api/emails/${id('Read here')}`, { isRead: true })).status).toBe(200)

    const emails = () => t.db.sql<{ subject: string; isRead: boolean; isStarred: boolean; flagsPending: boolean }[]>`
      select subject, is_read, is_starred, flags_pending from received_emails where provider_id = ${providerId} order by uid`
    await expect.poll(emails, { timeout: 30_000, interval: 200 }).toEqual([
      { subject: 'Starred here', isRead: false, isStarred: true, flagsPending: false },
      { subject: 'Read here', isRead: true, isStarred: false, flagsPending: false },
      { subject: 'Read elsewhere', isRead: true, isStarred: false, flagsPending: false },
      { subject: 'Arrived elsewhere', isRead: false, isStarred: false, flagsPending: false },
    ])
    // one sync per write-back (the two changes may be written in one job or two), each done
    await expect.poll(async () => (await syncJobs(t, providerId)).every((j) => j.status === 'done'), { timeout: 30_000, interval: 200 }).toBe(true)
    expect((await syncJobs(t, providerId)).length).toBeGreaterThanOrEqual(2)
  }, 60_000)
})
