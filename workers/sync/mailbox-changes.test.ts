// Incremental sync and write-back against a private Dovecot, with and without CONDSTORE/QRESYNC:
// new mail, flags and expunges made by another IMAP client, a new UIDVALIDITY, and the user's
// star/read/delete written back where another client sees them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queues } from '../../db/queues.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import type { TestApp } from '../../scripts/testing/test-app.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()

async function stored(t: TestApp, providerId: string) {
  return t.db.sql<{ id: string; uid: number; subject: string; isRead: boolean; isStarred: boolean }[]>`
    select id, uid::float8 as uid, subject, is_read, is_starred from received_emails where provider_id = ${providerId} and not deleted order by uid`
}

describe.skipIf(!run).each([
  { condstore: true, name: 'with CONDSTORE/QRESYNC' },
  { condstore: false, name: 'without CONDSTORE/QRESYNC' },
])('incremental sync and write-back $name', ({ condstore }) => {
  let dovecot: Dovecot
  let t: TestApp
  let user: ApiClient
  let providerId: string
  const login = 'inc@example.test'

  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv({ dovecot: { condstore } })
    ;({ dovecot, t, user } = env)
  })
  afterAll(() => env?.close())

  it('syncs the mailbox first', async () => {
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: 20 }, (_, i) => ({ raw: sampleMail(i * 8).raw, flags: i < 5 ? 'S' : '' })))
    const res = await user.json(user.post('/api/email-providers', {
      provider: 'other', email: login,
      encryptedCredentials: Buffer.from(JSON.stringify({ email: login, password, host: dovecot.host, port: dovecot.port, secure: true })).toString('base64'),
    }))
    providerId = res.body.provider.id
    expect(await syncJobFinished(user, providerId, res.body.jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 20 } })
  })

  it('picks up new mail, flag changes and expunges made by another client', async () => {
    const client = await dovecot.client(login)
    try {
      const lock = await client.getMailboxLock('INBOX')
      try {
        await client.messageFlagsRemove('1', ['\\Seen'], { uid: true }) // read → unread
        await client.messageFlagsAdd('7', ['\\Seen', '\\Flagged'], { uid: true })
        await client.messageDelete('10:11', { uid: true }) // \Deleted + EXPUNGE
      } finally {
        lock.release()
      }
    } finally {
      await client.logout()
    }
    await dovecot.append(login, [0, 1, 2].map((i) => ({ raw: sampleMail(1000 + i * 8).raw })))

    const job = await syncNow(user, providerId)
    expect(job).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 } })
    const rows = await stored(t, providerId)
    expect(rows.map((r) => r.uid)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23])
    expect(rows.find((r) => r.uid === 1)).toMatchObject({ isRead: false, isStarred: false })
    expect(rows.find((r) => r.uid === 2)).toMatchObject({ isRead: true })
    expect(rows.find((r) => r.uid === 7)).toMatchObject({ isRead: true, isStarred: true })
    expect(rows.filter((r) => r.uid > 20).map((r) => r.subject)).toEqual(['Plain message 1000', 'Plain message 1008', 'Plain message 1016'])
    const counts = (await user.json(user.get('/api/emails/counts'))).body
    expect(counts).toMatchObject({ total: 21, unread: 21 - 5, starred: 1 })

    // nothing changed: nothing new, nothing lost
    expect(await syncNow(user, providerId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 0 } })
    expect((await stored(t, providerId)).length).toBe(21)
  })

  it('writes star, read and delete back to the server, where another client sees them', async () => {
    const rows = await stored(t, providerId)
    const [first, second, third] = rows.filter((r) => r.uid >= 12)
    expect((await user.patch(`/api/emails/${first.id}`, { isStarred: true })).status).toBe(200)
    expect((await user.patch(`/api/emails/${second.id}`, { isRead: true })).status).toBe(200)
    expect((await user.delete(`/api/emails/${third.id}`)).status).toBe(200)
    // applied here at once
    const detail = (await user.json(user.get(`/api/emails/${first.id}`))).body.email
    expect(detail.isStarred).toBe(true)
    expect((await user.get(`/api/emails/${third.id}`)).status).toBe(404)
    expect((await user.json(user.patch(`/api/emails/${first.id}`, {}))).body.message).toBe('At least one field (isRead or isStarred) must be provided')

    await expect.poll(async () => {
      const inbox = await dovecot.flags(login)
      return { first: inbox.get(first.subject), second: inbox.get(second.subject), third: inbox.has(third.subject) }
    }, { timeout: 30_000, interval: 200 }).toEqual({ first: ['\\Flagged'], second: ['\\Seen'], third: false })
    expect((await dovecot.flags(login, 'Trash')).has(third.subject)).toBe(true)
    // written back: the marks are cleared and the deleted row is gone
    await expect.poll(async () => (await t.db.sql`select 1 from received_emails where provider_id = ${providerId} and (flags_pending or deleted)`).length, { timeout: 10_000 }).toBe(0)
    // a sync does not undo what the user did
    await syncNow(user, providerId)
    const after = await stored(t, providerId)
    expect(after.find((r) => r.id === first.id)).toMatchObject({ isStarred: true })
    expect(after.find((r) => r.id === second.id)).toMatchObject({ isRead: true })
    expect(after.some((r) => r.id === third.id)).toBe(false)
  })

  it('drops and fetches the folder again when its UIDVALIDITY changes', async () => {
    // The write-back above asks for a sync when it is done, maybe after the test's own: that one
    // ends before the folder changes, so the sync below is the one that finds it changed.
    await expect.poll(async () => (await t.db.sql`
      select 1 from pgboss.job where name = ${queues.mailboxChanges.name} and data->>'providerId' = ${providerId} and state in ('created', 'retry', 'active')
      union all select 1 from mailbox_sync_jobs where provider_id = ${providerId} and status in ('queued', 'running')`).length, { timeout: 30_000 }).toBe(0)
    const before = await stored(t, providerId)
    await dovecot.changeUidValidity(login, 'INBOX', 4242 + (condstore ? 1 : 2))
    const job = await syncNow(user, providerId)
    expect(job).toMatchObject({ status: 'done', syncResult: { newEmailsCount: before.length } })
    const after = await stored(t, providerId)
    expect(after.map((r) => r.subject).sort()).toEqual(before.map((r) => r.subject).sort())
    expect(after.some((r) => before.some((b) => b.id === r.id))).toBe(false)
    const [folder] = await t.db.sql`select uid_validity::text from mailbox_folders where provider_id = ${providerId} and path = 'INBOX'`
    expect(folder.uidValidity).toBe(String(4242 + (condstore ? 1 : 2)))
  })
})

describe.skipIf(!run)('delete on an account without a Trash folder', () => {
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv({ dovecot: { trash: false } })
  })
  afterAll(() => env?.close())

  it('creates Trash on the server (recorded as the account\'s \\Trash) and moves the message there once Undo\'s window has passed', async () => {
    const { dovecot, t, user } = env
    const login = 'no-trash@example.test'
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, [0, 1].map((i) => ({ raw: sampleMail(i * 8).raw })))
    const res = await user.json(user.post('/api/email-providers', {
      provider: 'other', email: login,
      encryptedCredentials: Buffer.from(JSON.stringify({ email: login, password, host: dovecot.host, port: dovecot.port, secure: true })).toString('base64'),
    }))
    const providerId = res.body.provider.id as string
    expect(await syncJobFinished(user, providerId, res.body.jobId)).toMatchObject({ status: 'done' })
    const paths = async () => {
      const client = await dovecot.client(login)
      try {
        return (await client.list()).map((m) => m.path).sort()
      } finally {
        await client.logout()
      }
    }
    expect(await paths()).not.toContain('Trash')

    const [kept, gone] = await stored(t, providerId)
    expect((await user.delete(`/api/emails/${gone.id}`)).status).toBe(200)
    await expect.poll(async () => (await dovecot.flags(login)).has(gone.subject), { timeout: 40_000, interval: 250 }).toBe(false)
    expect(await paths()).toContain('Trash')
    expect((await dovecot.flags(login, 'Trash')).has(gone.subject)).toBe(true)
    expect((await dovecot.flags(login)).has(kept.subject)).toBe(true)
    const [trash] = await t.db.sql<{ specialUse: string | null }[]>`select special_use from mailbox_folders where provider_id = ${providerId} and path = 'Trash'`
    expect(trash.specialUse).toBe('\\Trash')

    // Undo inside the window: the next delete is taken back and never moves
    expect((await user.delete(`/api/emails/${kept.id}`)).status).toBe(200)
    expect((await user.json(user.post(`/api/emails/${kept.id}/restore`, {}))).status).toBe(200)
    await expect.poll(async () => (await t.db.sql`
      select 1 from pgboss.job where name = ${queues.mailboxChanges.name} and data->>'providerId' = ${providerId} and state in ('created', 'retry', 'active')`).length, { timeout: 40_000 }).toBe(0)
    expect((await dovecot.flags(login)).has(kept.subject)).toBe(true)
    expect((await user.json(user.get(`/api/emails/${kept.id}`))).status).toBe(200)
    // a restore of what is not deleted (or not the user's) is not found
    expect((await user.post(`/api/emails/${kept.id}/restore`, {})).status).toBe(404)
  }, 120_000)
})
