// The counts of each folder (mailbox_counts, kept by statement triggers on received_emails) against
// a recount of the messages, through every change the sync, the API and write-back make, alone
// and at once.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSql, type Sql } from './client.ts'
import { deleteEmailProvider } from './email-providers.ts'
import { listFolderCounts, resetFolderCursor } from './mailbox-folders.ts'
import {
  applyServerFlags, clearFlagsPending, countFolderEmails, countReceivedEmails, deleteEmailsByUid, deleteFolderEmails, deleteReceivedEmail,
  insertReceivedEmails, markEmailDeleted, mergeThreads, setEmailFlags, type EmailCounts, type NewReceivedEmail,
} from './received-emails.ts'
import { eraseDeletedUser, markUserDeleted } from './users.ts'
import { storedAccount, storedUser, type StoredAccount } from '../scripts/testing/stored-accounts.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

const account = (userId: string, paths: string[]) => storedAccount(db.sql, userId, paths)
const user = () => storedUser(db.sql)

/** `count` messages of a folder from UID `from`, their flags and sizes varied by UID. */
function messages(a: StoredAccount, path: string, from: number, count: number): NewReceivedEmail[] {
  return Array.from({ length: count }, (_, i) => {
    const uid = from + i
    return {
      id: randomUUID(), userId: a.userId, providerId: a.providerId, folderId: a.folders[path], uid, messageId: null, inReplyTo: null, referenceIds: [],
      threadId: randomUUID(), threadSubject: 's', subject: 'S', fromAddress: 'a@example.test', fromName: '', toAddress: 'b@example.test',
      ccAddresses: '', bccAddresses: '', receivedAt: new Date(Date.UTC(2026, 0, 1) + uid * 60_000), size: 1000 + uid, isRead: uid % 3 === 0,
      isStarred: uid % 4 === 0, isAnswered: false, hasAttachments: false, modseq: null, preview: Buffer.from('p'), bodyText: null, bodyHtml: null,
    }
  })
}

const zero: EmailCounts = { total: 0, unread: 0, starred: 0, bytes: 0 }

/** Each folder's counts by counting its messages (those not deleted), by folder id. */
async function recount(): Promise<Map<string, EmailCounts>> {
  const rows = await db.sql<(EmailCounts & { folderId: string })[]>`
    select folder_id, count(*)::int as total, (count(*) filter (where not is_read))::int as unread,
      (count(*) filter (where is_starred))::int as starred, sum(size)::float8 as bytes
    from received_emails where not deleted group by folder_id`
  return new Map(rows.map(({ folderId, ...counts }) => [folderId, counts]))
}

/** What mailbox_counts holds, folders at zero left out (a folder emptied keeps its row). */
async function kept(): Promise<Map<string, EmailCounts>> {
  const rows = await db.sql<(EmailCounts & { folderId: string })[]>`
    select folder_id, total, unread, starred, bytes::float8 as bytes from mailbox_counts where (total, unread, starred, bytes) <> (0, 0, 0, 0)`
  return new Map(rows.map(({ folderId, ...counts }) => [folderId, counts]))
}

async function expectCountsMatch(): Promise<void> {
  expect(await kept()).toEqual(await recount())
}

async function idsOf(folderId: string): Promise<string[]> {
  return (await db.sql<{ id: string }[]>`select id from received_emails where folder_id = ${folderId} and not deleted order by uid`).map((r) => r.id)
}

const sum = (list: EmailCounts[]) => list.reduce((a, c) => ({ total: a.total + c.total, unread: a.unread + c.unread, starred: a.starred + c.starred, bytes: a.bytes + c.bytes }), zero)

describe('mailbox_counts', () => {
  it('keeps each folder, account and user count equal to a recount through sync, flag changes, write-back and expunges', async () => {
    const owner = await user()
    const a = await account(owner, ['INBOX', 'Archive'])
    const b = await account(owner, ['INBOX'])
    await insertReceivedEmails(db.sql, [...messages(a, 'INBOX', 1, 40), ...messages(a, 'Archive', 1, 25)])
    await insertReceivedEmails(db.sql, messages(b, 'INBOX', 1, 30))
    // a resumed sync stores the same UIDs again: nothing is added, nothing counted twice
    expect((await insertReceivedEmails(db.sql, messages(a, 'INBOX', 31, 20))).size).toBe(10)
    await expectCountsMatch()

    const inbox = await idsOf(a.folders.INBOX)
    await setEmailFlags(db.sql, owner, inbox[0], { isRead: true, isStarred: true })
    await setEmailFlags(db.sql, owner, inbox[2], { isRead: false })
    await markEmailDeleted(db.sql, owner, inbox[5])
    await expectCountsMatch()
    // write-back: the flags written (mark cleared), the deletion done
    await clearFlagsPending(db.sql, inbox[0], true, true)
    await deleteReceivedEmail(db.sql, inbox[5])
    // another client: flags changed, messages expunged; a conversation merged across folders
    await applyServerFlags(db.sql, a.folders.Archive, [1, 2, 3, 4, 5].map((uid) => ({ uid, isRead: true, isStarred: uid % 2 === 0, isAnswered: true, modseq: null })))
    await deleteEmailsByUid(db.sql, a.folders.Archive, [7, 8, 9])
    const [x, y] = await db.sql<{ threadId: string }[]>`select thread_id from received_emails where provider_id = ${a.providerId} and uid = 10 order by folder_id`
    await mergeThreads(db.sql, owner, x.threadId, [y.threadId])
    await expectCountsMatch()

    const recounted = await recount()
    for (const folderId of [a.folders.INBOX, a.folders.Archive, b.folders.INBOX]) {
      expect(await countFolderEmails(db.sql, owner, folderId)).toEqual(recounted.get(folderId))
    }
    expect(await countReceivedEmails(db.sql, owner, a.providerId)).toEqual(sum([recounted.get(a.folders.INBOX)!, recounted.get(a.folders.Archive)!]))
    expect(await countReceivedEmails(db.sql, owner)).toEqual(sum([a.folders.INBOX, a.folders.Archive, b.folders.INBOX].map((f) => recounted.get(f)!)))
    const sidebar = await listFolderCounts(db.sql, owner)
    expect(sidebar.find((f) => f.id === a.folders.Archive)).toMatchObject({ stored: recounted.get(a.folders.Archive)!.total, unread: recounted.get(a.folders.Archive)!.unread })
    // another user's folder has no counts for this one
    expect(await countFolderEmails(db.sql, await user(), a.folders.INBOX)).toBeUndefined()
  })

  it('drops a folder to zero on a UIDVALIDITY change and counts the mail fetched again, the other folders untouched', async () => {
    const owner = await user()
    const a = await account(owner, ['INBOX', 'Sent'])
    await insertReceivedEmails(db.sql, [...messages(a, 'INBOX', 1, 50), ...messages(a, 'Sent', 1, 10)])
    const sent = await countFolderEmails(db.sql, owner, a.folders.Sent)
    await db.sql.begin(async (tx) => {
      await deleteFolderEmails(tx, a.folders.INBOX)
      await resetFolderCursor(tx, a.folders.INBOX, 2n)
    })
    expect(await countFolderEmails(db.sql, owner, a.folders.INBOX)).toEqual(zero)
    expect(await countFolderEmails(db.sql, owner, a.folders.Sent)).toEqual(sent)
    await insertReceivedEmails(db.sql, messages(a, 'INBOX', 1, 30))
    expect((await countFolderEmails(db.sql, owner, a.folders.INBOX))!.total).toBe(30)
    await expectCountsMatch()
  })

  it('removes the counts of a deleted account and of an erased user, the other accounts kept', async () => {
    const owner = await user()
    const gone = await account(owner, ['INBOX', 'Archive'])
    const kept1 = await account(owner, ['INBOX'])
    await insertReceivedEmails(db.sql, [...messages(gone, 'INBOX', 1, 20), ...messages(gone, 'Archive', 1, 5), ...messages(kept1, 'INBOX', 1, 7)])
    const before = await countFolderEmails(db.sql, owner, kept1.folders.INBOX)
    expect(await deleteEmailProvider(db.sql, owner, gone.providerId)).toBe(true)
    const [{ rows }] = await db.sql<{ rows: number }[]>`select count(*)::int as rows from mailbox_counts where provider_id = ${gone.providerId}`
    expect(rows).toBe(0)
    expect(await countReceivedEmails(db.sql, owner)).toEqual(before)
    await expectCountsMatch()

    await markUserDeleted(db.sql, owner)
    await eraseDeletedUser(db.sql, owner)
    const [{ left }] = await db.sql<{ left: number }[]>`select count(*)::int as left from mailbox_counts where user_id = ${owner}`
    expect(left).toBe(0)
    await expectCountsMatch()
  })

  it('answers a folder, an account, the user and the sidebar from the counts without reading received_emails', async () => {
    const owner = await user()
    const a = await account(owner, ['INBOX'])
    await insertReceivedEmails(db.sql, messages(a, 'INBOX', 1, 20))
    await db.sql.begin(async (tx) => {
      // this session's reads not yet in the cumulative statistics (pg_stat_xact_*), which grow only
      // by what this transaction reads until it ends
      const scans = async () => (await tx<{ scans: number }[]>`
        select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int as scans from pg_stat_xact_user_tables where relname = 'received_emails'`)[0].scans
      const before = await scans()
      await countFolderEmails(tx, owner, a.folders.INBOX)
      await countReceivedEmails(tx, owner, a.providerId)
      await countReceivedEmails(tx, owner)
      await listFolderCounts(tx, owner)
      expect(await scans()).toBe(before)
    })
  })

  it('equals a recount after many flag changes, deletions, expunges, merges and sync batches at once', async () => {
    const owner = await user()
    const a = await account(owner, ['INBOX', 'Archive'])
    const b = await account(owner, ['INBOX'])
    await insertReceivedEmails(db.sql, [...messages(a, 'INBOX', 1, 300), ...messages(a, 'Archive', 1, 100), ...messages(b, 'INBOX', 1, 100)])
    const inbox = await idsOf(a.folders.INBOX)
    const archive = await idsOf(a.folders.Archive)
    const other = await idsOf(b.folders.INBOX)
    const everyId = [...inbox, ...archive, ...other]
    const threads = (await db.sql<{ threadId: string }[]>`select thread_id from received_emails where user_id = ${owner} order by uid, folder_id limit 60`).map((r) => r.threadId)
    // the API's connections (one transaction per change, as PATCH and DELETE make them) and the sync's
    const pool: Sql = createSql(db.url, { max: 12 })
    let next = 12_345
    const random = (n: number) => (next = (next * 1_103_515_245 + 12_345) % 2_147_483_648) % n
    try {
      const work: Promise<unknown>[] = []
      for (let i = 0; i < 400; i++) {
        const id = everyId[random(everyId.length)]
        const flags = { isRead: random(2) === 0, isStarred: random(3) === 0 }
        work.push(pool.begin((tx) => setEmailFlags(tx, owner, id, flags)))
        if (i % 10 === 0) work.push(pool.begin((tx) => markEmailDeleted(tx, owner, everyId[random(everyId.length)])))
        if (i % 25 === 0) work.push(clearFlagsPending(pool, everyId[random(everyId.length)], true, false))
        if (i % 40 === 0) work.push(deleteEmailsByUid(pool, a.folders.Archive, [random(100) + 1, random(100) + 1]))
        if (i % 50 === 0) work.push(mergeThreads(pool, owner, threads[random(60)], [threads[random(60)], threads[random(60)]]))
        if (i % 50 === 25) work.push(pool.begin((tx) => insertReceivedEmails(tx, messages(a, 'INBOX', 1000 + i * 10, 10))))
        if (i % 100 === 50) work.push(applyServerFlags(pool, b.folders.INBOX, Array.from({ length: 30 }, (_, k) => ({ uid: k + 1, isRead: random(2) === 0, isStarred: random(2) === 0, isAnswered: false, modseq: null }))))
      }
      await Promise.all(work)
    } finally {
      await pool.end()
    }
    await expectCountsMatch()
    const recounted = await recount()
    expect(await countFolderEmails(db.sql, owner, a.folders.INBOX)).toEqual(recounted.get(a.folders.INBOX))
    expect(await countReceivedEmails(db.sql, owner)).toEqual(sum([a.folders.INBOX, a.folders.Archive, b.folders.INBOX].map((f) => recounted.get(f) ?? zero)))
  })

  it('stays equal to a recount while an account is deleted during a sync of it', async () => {
    const owner = await user()
    const syncing = await account(owner, ['INBOX'])
    const staying = await account(owner, ['INBOX'])
    await insertReceivedEmails(db.sql, [...messages(syncing, 'INBOX', 1, 50), ...messages(staying, 'INBOX', 1, 50)])
    const pool: Sql = createSql(db.url, { max: 6 })
    try {
      const batches = Array.from({ length: 8 }, (_, i) => pool.begin((tx) => insertReceivedEmails(tx, messages(syncing, 'INBOX', 100 + i * 20, 20)))
        // a batch that comes after the deletion fails on the account's foreign key, as the sync's would
        .catch((error: { code?: string }) => { if (error.code !== '23503') throw error }))
      const flags = Array.from({ length: 20 }, (_, i) => pool.begin(async (tx) => {
        const [row] = await tx<{ id: string }[]>`select id from received_emails where folder_id = ${staying.folders.INBOX} and uid = ${i + 1}`
        await setEmailFlags(tx, owner, row.id, { isStarred: true })
      }))
      await Promise.all([...batches, ...flags, pool.begin((tx) => deleteEmailProvider(tx, owner, syncing.providerId))])
    } finally {
      await pool.end()
    }
    const [{ rows }] = await db.sql<{ rows: number }[]>`select count(*)::int as rows from mailbox_counts where provider_id = ${syncing.providerId}`
    expect(rows).toBe(0)
    await expectCountsMatch()
  })
})
