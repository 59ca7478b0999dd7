// Statements that change several stored messages lock them in id order (db/received-emails.ts,
// lockedInIdOrder), so two of them, or one and a transaction taking rows in that order, wait for each
// other instead of deadlocking. Two messages whose UID, date and place in the table all come in the
// opposite order to their ids: another transaction holds the first by id; the statement must wait
// for it holding nothing, so that the transaction can go on to take the second. Read in any other
// order (the UID's, the date's, the table's), the statement holds the second and Postgres aborts
// one of the two ("deadlock detected").
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  applyServerFlags, deleteEmailsByUid, deleteFolderEmails, insertReceivedEmails, type NewReceivedEmail,
} from './received-emails.ts'
import { storedAccount, storedUser, type StoredAccount } from '../scripts/testing/stored-accounts.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

/** Two messages: UID 1 (the older, stored first) with the higher id, UID 2 with the lower. */
async function twoMessages(): Promise<{ a: StoredAccount; low: string; high: string }> {
  const a = await storedAccount(db.sql, await storedUser(db.sql), ['INBOX'])
  const thread = randomUUID()
  const suffix = randomUUID().slice(-12)
  const [high, low] = [`ffffffff-ffff-4fff-bfff-${suffix}`, `00000000-0000-4000-8000-${suffix}`]
  const row = (id: string, uid: number): NewReceivedEmail => ({
    id, userId: a.userId, providerId: a.providerId, folderId: a.folders.INBOX, uid, messageId: null, inReplyTo: null, referenceIds: [],
    threadId: thread, threadSubject: 's', subject: 'S', fromAddress: 'a@example.test', fromName: '', toAddress: 'b@example.test',
    ccAddresses: '', bccAddresses: '', receivedAt: new Date(Date.UTC(2026, 0, uid)), size: 1000, isRead: false, isStarred: false,
    isAnswered: false, hasAttachments: false, modseq: null, preview: Buffer.from('p'), bodyText: null, bodyHtml: null,
  })
  await insertReceivedEmails(db.sql, [row(high, 1)])
  await insertReceivedEmails(db.sql, [row(low, 2)])
  return { a, low, high }
}

/** Sessions of this database waiting for a lock. */
async function waitingForLocks(): Promise<number> {
  const [{ n }] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`
  return n
}

/**
 * `statement` over both messages while another transaction holds the lower id's row; once the
 * statement waits, that transaction takes the higher id's row too, then commits.
 */
async function againstOrderedLocker(low: string, high: string, statement: () => Promise<unknown>): Promise<void> {
  const other = await db.sql.reserve()
  try {
    await other`begin`
    await other`select 1 from received_emails where id = ${low} for update`
    const running = statement()
    running.catch(() => {})
    await expect.poll(waitingForLocks, { timeout: 20_000, interval: 50 }).toBe(1)
    await other`update received_emails set is_starred = true where id = ${high}`
    await other`commit`
    await running
  } finally {
    await other`rollback`.catch(() => {})
    other.release()
  }
}

describe('statements over several messages', () => {
  it('the sync storing server flags waits for a transaction holding the first message by id', async () => {
    const { a, low, high } = await twoMessages()
    await againstOrderedLocker(low, high, () => applyServerFlags(db.sql, a.folders.INBOX, [
      { uid: 1, isRead: true, isStarred: false, isAnswered: true, modseq: 7n },
      { uid: 2, isRead: true, isStarred: false, isAnswered: false, modseq: 8n },
    ]))
    const rows = await db.sql`select id, is_read, is_starred, is_answered, modseq::int from received_emails where folder_id = ${a.folders.INBOX} order by uid`
    // the statement ran after the transaction: it read the star the transaction set, and changed
    // only what the server said
    expect(rows).toEqual([
      { id: high, isRead: true, isStarred: false, isAnswered: true, modseq: 7 },
      { id: low, isRead: true, isStarred: false, isAnswered: false, modseq: 8 },
    ])
  })

  it('an expunge of both waits for it', async () => {
    const { a, low, high } = await twoMessages()
    let removed = 0
    await againstOrderedLocker(low, high, async () => { removed = await deleteEmailsByUid(db.sql, a.folders.INBOX, [1, 2]) })
    expect(removed).toBe(2)
    expect(await db.sql`select id from received_emails where folder_id = ${a.folders.INBOX}`).toEqual([])
  })

  it('a folder emptied for a new UIDVALIDITY waits for it', async () => {
    const { a, low, high } = await twoMessages()
    let removed = 0
    await againstOrderedLocker(low, high, async () => { removed = await deleteFolderEmails(db.sql, a.folders.INBOX) })
    expect(removed).toBe(2)
    expect(await db.sql`select id from received_emails where folder_id = ${a.folders.INBOX}`).toEqual([])
  })
})
