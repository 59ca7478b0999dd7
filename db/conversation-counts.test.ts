// The conversations of each list (conversation_counts, kept by statement triggers on
// received_emails, migration 0071): the pager's total of the user's whole list, an account's and a
// folder's, against a recount of their messages' conversations, through every change the sync, the
// API and write-back make, alone and at once.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSql, type Sql } from './client.ts'
import { deleteEmailProvider } from './email-providers.ts'
import {
  applyServerFlags, countConversations, deleteEmailsByUid, deleteFolderEmails, deleteReceivedEmail, insertReceivedEmails, markEmailDeleted,
  markEmailMoved, mergeThreads, restoreDeletedEmail, setEmailFlags, type NewReceivedEmail,
} from './received-emails.ts'
import { eraseDeletedUser, markUserDeleted } from './users.ts'
import { seededRandom } from '../scripts/testing/seeded-random.ts'
import { storedAccount, storedUser, type StoredAccount } from '../scripts/testing/stored-accounts.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

const account = (userId: string, paths: string[]) => storedAccount(db.sql, userId, paths)
const user = () => storedUser(db.sql)

/** `count` messages of a folder from UID `from`, each in one of `threads` (shared across folders and accounts). */
function messages(a: StoredAccount, path: string, from: number, count: number, threads: string[]): NewReceivedEmail[] {
  return Array.from({ length: count }, (_, i) => {
    const uid = from + i
    return {
      id: randomUUID(), userId: a.userId, providerId: a.providerId, folderId: a.folders[path], uid, messageId: null, inReplyTo: null, referenceIds: [],
      threadId: threads[uid % threads.length], threadSubject: 's', subject: 'S', fromAddress: 'a@example.test', fromName: '', toAddress: 'b@example.test',
      ccAddresses: '', bccAddresses: '', receivedAt: new Date(Date.UTC(2026, 0, 1) + uid * 60_000), size: 1000, isRead: uid % 3 === 0,
      isStarred: false, isAnswered: false, hasAttachments: false, modseq: null, preview: Buffer.from('p'), bodyText: null, bodyHtml: null,
    }
  })
}

const threadIds = (n: number) => Array.from({ length: n }, () => randomUUID())

/** Every scope's conversations by counting its listed messages' distinct conversations: users, accounts and folders. */
async function recount(): Promise<Map<string, number>> {
  const rows = await db.sql<{ scopeId: string; conversations: number }[]>`
    select s.scope_id, count(distinct e.thread_id)::int as conversations
    from received_emails e, lateral (values (e.user_id), (e.provider_id), (e.folder_id)) s(scope_id) where not e.deleted group by s.scope_id`
  return new Map(rows.map((r) => [r.scopeId, r.conversations]))
}

/** What conversation_counts holds. */
async function kept(): Promise<Map<string, number>> {
  const rows = await db.sql<{ scopeId: string; conversations: number }[]>`select scope_id, conversations from conversation_counts`
  return new Map(rows.map((r) => [r.scopeId, r.conversations]))
}

/** The kept counts equal the recount, and no conversation of a scope is kept at zero messages or left over. */
async function expectCountsMatch(): Promise<void> {
  expect(await kept()).toEqual(await recount())
  const [{ members }] = await db.sql<{ members: number }[]>`select count(*)::int as members from conversation_members`
  const [{ listed }] = await db.sql<{ listed: number }[]>`
    select count(*)::int as listed from (select distinct s.scope_id, e.thread_id
      from received_emails e, lateral (values (e.user_id), (e.provider_id), (e.folder_id)) s(scope_id) where not e.deleted) m`
  expect(members).toBe(listed)
}

async function idsOf(folderId: string): Promise<string[]> {
  return (await db.sql<{ id: string }[]>`select id from received_emails where folder_id = ${folderId} and not deleted order by uid`).map((r) => r.id)
}

describe('conversation_counts', () => {
  it("keeps the user's, each account's and each folder's conversations equal to a recount through sync, flags, deletes, undo, moves, merges and expunges", async () => {
    const owner = await user()
    const a = await account(owner, ['INBOX', 'Archive'])
    const b = await account(owner, ['INBOX'])
    const threads = threadIds(30)
    await insertReceivedEmails(db.sql, [...messages(a, 'INBOX', 1, 40, threads), ...messages(a, 'Archive', 1, 25, threads)])
    await insertReceivedEmails(db.sql, messages(b, 'INBOX', 1, 30, threads.slice(20)))
    // a resumed sync stores the same UIDs again: nothing counted twice
    expect((await insertReceivedEmails(db.sql, messages(a, 'INBOX', 31, 20, threads))).size).toBe(10)
    await expectCountsMatch()

    const inbox = await idsOf(a.folders.INBOX)
    await setEmailFlags(db.sql, owner, inbox[0], { isRead: true, isStarred: true })
    // a conversation's every message of a folder deleted, then one of them undone
    const lone = (await db.sql<{ id: string }[]>`select id from received_emails where folder_id = ${b.folders.INBOX} and thread_id = ${threads[21]}`).map((r) => r.id)
    for (const id of lone) await markEmailDeleted(db.sql, owner, id)
    await expectCountsMatch()
    await restoreDeletedEmail(db.sql, owner, lone[0])
    await markEmailMoved(db.sql, owner, inbox[3], a.folders.Archive)
    await expectCountsMatch()
    // write-back done, another client's flags and expunges, a conversation merged across folders
    await deleteReceivedEmail(db.sql, inbox[3])
    await applyServerFlags(db.sql, a.folders.Archive, [1, 2, 3].map((uid) => ({ uid, isRead: true, isStarred: true, isAnswered: true, modseq: null })))
    await deleteEmailsByUid(db.sql, a.folders.Archive, [7, 8, 9])
    await mergeThreads(db.sql, owner, threads[1], [threads[2], threads[25]])
    await expectCountsMatch()

    const recounted = await recount()
    expect(await countConversations(db.sql, owner, { category: 'inbox' })).toBe(recounted.get(owner))
    expect(await countConversations(db.sql, owner, { category: 'inbox', providerId: a.providerId })).toBe(recounted.get(a.providerId))
    expect(await countConversations(db.sql, owner, { category: 'inbox', folderId: a.folders.Archive })).toBe(recounted.get(a.folders.Archive))
    expect(await countConversations(db.sql, owner, { category: 'inbox', providerId: b.providerId, folderId: b.folders.INBOX })).toBe(recounted.get(b.folders.INBOX))
    // another user's account or folder, or a folder named with another account: none of theirs
    const stranger = await user()
    expect(await countConversations(db.sql, stranger, { category: 'inbox', providerId: a.providerId })).toBe(0)
    expect(await countConversations(db.sql, stranger, { category: 'inbox', folderId: a.folders.INBOX })).toBe(0)
    expect(await countConversations(db.sql, owner, { category: 'inbox', providerId: b.providerId, folderId: a.folders.INBOX })).toBe(0)
  })

  it('empties a folder on a UIDVALIDITY change, and leaves nothing of a deleted account or an erased user', async () => {
    const owner = await user()
    const gone = await account(owner, ['INBOX', 'Archive'])
    const staying = await account(owner, ['INBOX'])
    const threads = threadIds(12)
    await insertReceivedEmails(db.sql, [...messages(gone, 'INBOX', 1, 20, threads), ...messages(gone, 'Archive', 1, 5, threads), ...messages(staying, 'INBOX', 1, 7, threads)])
    await deleteFolderEmails(db.sql, gone.folders.Archive)
    expect(await countConversations(db.sql, owner, { category: 'inbox', folderId: gone.folders.Archive })).toBe(0)
    await expectCountsMatch()
    expect(await deleteEmailProvider(db.sql, owner, gone.providerId)).toBe(true)
    const left = async (scopes: string[]) =>
      (await db.sql<{ rows: number }[]>`select ((select count(*) from conversation_counts where scope_id = any(${scopes}::uuid[]))
        + (select count(*) from conversation_members where scope_id = any(${scopes}::uuid[])))::int as rows`)[0].rows
    expect(await left([gone.providerId, ...Object.values(gone.folders)])).toBe(0)
    expect(await countConversations(db.sql, owner, { category: 'inbox' })).toBe(7)
    await expectCountsMatch()
    await markUserDeleted(db.sql, owner)
    await eraseDeletedUser(db.sql, owner)
    expect(await left([owner, staying.providerId, staying.folders.INBOX])).toBe(0)
    await expectCountsMatch()
  })

  it("answers the user's, an account's and a folder's total without reading received_emails", async () => {
    const owner = await user()
    const a = await account(owner, ['INBOX'])
    await insertReceivedEmails(db.sql, messages(a, 'INBOX', 1, 200, threadIds(70)))
    await db.sql`vacuum analyze received_emails`
    await db.sql.begin(async (tx) => {
      // this session's reads not yet in the cumulative statistics (pg_stat_xact_*): they grow only by this transaction's
      const reads = async () => (await tx<{ reads: number }[]>`
        select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int as reads from pg_stat_xact_user_tables where relname = 'received_emails'`)[0].reads
      const before = await reads()
      expect(await countConversations(tx, owner, { category: 'inbox' })).toBe(70)
      expect(await countConversations(tx, owner, { category: 'inbox', providerId: a.providerId })).toBe(70)
      expect(await countConversations(tx, owner, { category: 'inbox', folderId: a.folders.INBOX })).toBe(70)
      expect(await reads()).toBe(before)
    })
  })

  it('equals a recount after many sync batches, deletions, undos, moves, merges and expunges at once on shared conversations', async () => {
    const owner = await user()
    const a = await account(owner, ['INBOX', 'Archive'])
    const b = await account(owner, ['INBOX'])
    // few conversations, so that concurrent changes meet on the same ones, and on the user's and accounts' totals
    const threads = threadIds(25)
    await insertReceivedEmails(db.sql, [...messages(a, 'INBOX', 1, 150, threads), ...messages(a, 'Archive', 1, 60, threads), ...messages(b, 'INBOX', 1, 60, threads)])
    const everyId = [...await idsOf(a.folders.INBOX), ...await idsOf(a.folders.Archive), ...await idsOf(b.folders.INBOX)]
    const pool: Sql = createSql(db.url, { max: 12 })
    const random = seededRandom(2671)
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]
    try {
      const work: Promise<unknown>[] = []
      for (let i = 0; i < 300; i++) {
        work.push(pool.begin((tx) => markEmailDeleted(tx, owner, pick(everyId))))
        if (i % 3 === 0) work.push(pool.begin((tx) => restoreDeletedEmail(tx, owner, pick(everyId))))
        if (i % 5 === 0) work.push(pool.begin((tx) => setEmailFlags(tx, owner, pick(everyId), { isRead: random() < 0.5 })))
        if (i % 7 === 0) work.push(pool.begin((tx) => markEmailMoved(tx, owner, pick(everyId), a.folders.Archive)))
        if (i % 10 === 0) work.push(pool.begin((tx) => deleteReceivedEmail(tx, pick(everyId))))
        if (i % 20 === 0) work.push(deleteEmailsByUid(pool, a.folders.Archive, [Math.floor(random() * 60) + 1, Math.floor(random() * 60) + 1]))
        if (i % 30 === 0) work.push(mergeThreads(pool, owner, pick(threads), [pick(threads), pick(threads)]))
        if (i % 15 === 5) work.push(pool.begin((tx) => insertReceivedEmails(tx, messages(i % 2 ? a : b, 'INBOX', 1000 + i * 10, 10, [...threadIds(3), ...threads]))))
        if (i % 50 === 10) work.push(applyServerFlags(pool, b.folders.INBOX, Array.from({ length: 20 }, (_, k) => ({ uid: k + 1, isRead: random() < 0.5, isStarred: false, isAnswered: false, modseq: null }))))
      }
      await Promise.all(work)
    } finally {
      await pool.end()
    }
    await expectCountsMatch()
    expect(await countConversations(db.sql, owner, { category: 'inbox' })).toBe((await recount()).get(owner))
  })
})
