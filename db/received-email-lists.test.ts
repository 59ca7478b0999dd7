// Listing synced mail: one folder's page reads that folder's rows, not the user's newer mail
// elsewhere. This file's database holds one user, as a server with one big user does: there the
// planner knows user_id = … matches every row.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertEmailProvider } from './email-providers.ts'
import { upsertFolder } from './mailbox-folders.ts'
import { countConversations, insertReceivedEmails, listConversationPage, listReceivedEmails, PAGE_THREAD_MESSAGES, type NewReceivedEmail } from './received-emails.ts'
import { insertUser } from './users.ts'
import { seededRandom } from '../scripts/testing/seeded-random.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

/** A synced message as the lists read it: unread and not starred unless told. */
const stored = (m: Pick<NewReceivedEmail, 'userId' | 'providerId' | 'folderId' | 'uid' | 'receivedAt'> & Partial<NewReceivedEmail>): NewReceivedEmail => ({
  id: randomUUID(), messageId: null, inReplyTo: null, referenceIds: [], threadId: randomUUID(), threadSubject: 's', subject: 'S',
  fromAddress: 'a@example.test', fromName: '', toAddress: 'b@example.test', ccAddresses: '', bccAddresses: '', size: 10,
  isRead: false, isStarred: false, isAnswered: false, hasAttachments: false, modseq: null, preview: Buffer.from('p'), bodyText: null, bodyHtml: null,
  ...m,
})

describe('listReceivedEmails', () => {
  it("reads a folder's page from that folder alone, however much newer mail the user's other folders hold", async () => {
    const user = (await insertUser(db.sql, { email: 'lists@veilmail.test', authMethod: 'email' }))!
    const providerId = randomUUID()
    await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: 'lists@example.test', credentials: Buffer.from('x') })
    // the old mail's folder is the one whose id sorts after the other's: stored first, its index then
    // looks scattered over the table to the planner, which prefers the user's list (as in npm run bench -- sync)
    const [recent, archive] = [await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true), await upsertFolder(db.sql, providerId, 'Archive', '\\Archive', true)]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
    const email = (folderId: string, uid: number, receivedAt: Date) => stored({ userId: user.id, providerId, folderId, uid, receivedAt })
    // 5,000 old messages, then 1,000 newer than any of them in the other folder
    for (let start = 0; start < 5000; start += 1000) {
      await insertReceivedEmails(db.sql, Array.from({ length: 1000 }, (_, i) => email(archive.id, start + i + 1, new Date(Date.UTC(2024, 0, 1) + (start + i) * 60_000))))
    }
    await insertReceivedEmails(db.sql, Array.from({ length: 1000 }, (_, i) => email(recent.id, i + 1, new Date(Date.UTC(2026, 0, 1) + i * 60_000))))
    // vacuumed: the rows an offset skips are read from the index alone
    await db.sql`vacuum analyze received_emails`
    await db.sql.begin(async (tx) => {
      // rows this session fetched through indexes and not yet in the cumulative statistics: they grow only by this transaction's reads
      const fetched = async () => (await tx<{ rows: number }[]>`select idx_tup_fetch::int as rows from pg_stat_xact_user_tables where relname = 'received_emails'`)[0]?.rows ?? 0
      for (const [offset, newest] of [[0, 4999], [100, 4899]]) {
        const before = await fetched()
        const page = await listReceivedEmails(tx, user.id, { folderId: archive.id, category: 'inbox', limit: 50, offset })
        expect(page.map((r) => r.folderId)).toEqual(Array(50).fill(archive.id))
        expect(page[0].receivedAt).toEqual(new Date(Date.UTC(2024, 0, 1) + newest * 60_000))
        // the page's 50 rows, none of the 1,000 newer ones
        expect(await fetched() - before).toBe(50)
      }
    })
  })

  it("reads one account's unread and starred pages from that account alone, however much newer such mail the user's other accounts hold", async () => {
    const user = (await insertUser(db.sql, { email: 'categories@veilmail.test', authMethod: 'email' }))!
    const [older, newer] = [randomUUID(), randomUUID()]
    const folders: Record<string, string> = {}
    for (const providerId of [older, newer]) {
      await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: `${providerId}@example.test`, credentials: Buffer.from('x') })
      folders[providerId] = (await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true)).id
    }
    // every other message unread and starred: the account's whole list holds as many read ones in between
    const email = (providerId: string, uid: number, receivedAt: Date, flagged = uid % 2 === 0) =>
      stored({ userId: user.id, providerId, folderId: folders[providerId], uid, receivedAt, isRead: !flagged, isStarred: flagged })
    // 3,000 in one account, then 1,000 newer unread and starred ones in the other
    for (let start = 0; start < 3000; start += 1000) {
      await insertReceivedEmails(db.sql, Array.from({ length: 1000 }, (_, i) => email(older, start + i + 1, new Date(Date.UTC(2024, 0, 1) + (start + i) * 60_000))))
    }
    await insertReceivedEmails(db.sql, Array.from({ length: 1000 }, (_, i) => email(newer, i + 1, new Date(Date.UTC(2026, 0, 1) + i * 60_000), true)))
    await db.sql`vacuum analyze received_emails`
    await db.sql.begin(async (tx) => {
      const fetched = async () => (await tx<{ rows: number }[]>`select idx_tup_fetch::int as rows from pg_stat_xact_user_tables where relname = 'received_emails'`)[0]?.rows ?? 0
      for (const category of ['unread', 'starred'] as const) {
        const before = await fetched()
        const page = await listReceivedEmails(tx, user.id, { providerId: older, category, limit: 50, offset: 0 })
        expect(page.map((r) => r.providerId)).toEqual(Array(50).fill(older))
        expect(page[0].receivedAt).toEqual(new Date(Date.UTC(2024, 0, 1) + 2999 * 60_000)) // uid 3,000
        // the page's 50 rows: none of the other account's 1,000 newer ones, none of this one's read mail
        expect(await fetched() - before, category).toBe(50)
      }
    })
  })
})

describe('listConversationPage', () => {
  it('pages and counts conversations, not messages: each thread once, by its newest message, with its listed messages', async () => {
    const user = (await insertUser(db.sql, { email: 'threads@veilmail.test', authMethod: 'email' }))!
    const providerId = randomUUID()
    await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: 'threads@example.test', credentials: Buffer.from('x') })
    const folder = await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true)
    const at = (minute: number) => new Date(Date.UTC(2025, 0, 1) + minute * 60_000)
    // 60 single messages (minutes 0-59), a thread of 5 spread among them (minutes 10.5 to 50.5, newest in the middle of the list),
    // and a runaway thread of PAGE_THREAD_MESSAGES + 10 messages, all older than the rest
    const pair = randomUUID()
    const runaway = randomUUID()
    let uid = 0
    const email = (receivedAt: Date, threadId = randomUUID(), isStarred = false) => stored({ userId: user.id, providerId, folderId: folder.id, uid: ++uid, receivedAt, threadId, isStarred })
    await insertReceivedEmails(db.sql, [
      ...Array.from({ length: 60 }, (_, i) => email(at(i), undefined, i % 10 === 0)),
      ...Array.from({ length: 5 }, (_, i) => email(at(10.5 + i * 10), pair, i === 0)),
      ...Array.from({ length: PAGE_THREAD_MESSAGES + 10 }, (_, i) => email(at(-1000 + i), runaway)),
    ])
    const scope = { providerId, category: 'inbox' as const }
    // 60 + the pair + the runaway: 62 conversations of 275 messages
    expect(await countConversations(db.sql, user.id, scope)).toBe(62)
    const first = await listConversationPage(db.sql, user.id, { ...scope, limit: 50, offset: 0 })
    const threads = (rows: { threadId: string }[]) => [...new Set(rows.map((r) => r.threadId))]
    expect(threads(first)).toHaveLength(50)
    expect(first.filter((r) => r.threadId === pair)).toHaveLength(5)
    expect(first[0].receivedAt).toEqual(at(59))
    const second = await listConversationPage(db.sql, user.id, { ...scope, limit: 50, offset: 50 })
    expect(threads(second)).toHaveLength(12)
    expect(threads(second).filter((t) => threads(first).includes(t))).toEqual([])
    // the runaway thread is the last row, with its newest PAGE_THREAD_MESSAGES messages
    const last = second.filter((r) => r.threadId === runaway)
    expect(last).toHaveLength(PAGE_THREAD_MESSAGES)
    expect(last[0].receivedAt).toEqual(at(-1000 + PAGE_THREAD_MESSAGES + 9))
    expect(await listConversationPage(db.sql, user.id, { ...scope, limit: 50, offset: 62 })).toEqual([])
    // starred: the 6 starred singles and the pair's starred message, 7 conversations of 7 messages
    expect(await countConversations(db.sql, user.id, { providerId, category: 'starred' })).toBe(7)
    expect(await listConversationPage(db.sql, user.id, { providerId, category: 'starred', limit: 50, offset: 0 })).toHaveLength(7)
    // another user sees none of it
    const other = (await insertUser(db.sql, { email: 'other-threads@veilmail.test', authMethod: 'email' }))!
    expect(await countConversations(db.sql, other.id, scope)).toBe(0)
    expect(await listConversationPage(db.sql, other.id, { ...scope, limit: 50, offset: 0 })).toEqual([])
    expect(await listConversationPage(db.sql, other.id, { folderId: folder.id, category: 'inbox', limit: 50, offset: 0 })).toEqual([])
  })
  it("reads a first page from the list's newest messages, not all of the user's mail", async () => {
    const user = (await insertUser(db.sql, { email: 'first-page@veilmail.test', authMethod: 'email' }))!
    const providerId = randomUUID()
    await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: 'first-page@example.test', credentials: Buffer.from('x') })
    const folder = await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true)
    // 6,000 messages in conversations of three, a minute apart
    const threads = Array.from({ length: 2000 }, () => randomUUID())
    for (let start = 0; start < 6000; start += 1000) {
      await insertReceivedEmails(db.sql, Array.from({ length: 1000 }, (_, i) => stored({
        userId: user.id, providerId, folderId: folder.id, uid: start + i + 1, receivedAt: new Date(Date.UTC(2024, 0, 1) + (start + i) * 60_000), threadId: threads[Math.floor((start + i) / 3)],
      })))
    }
    await db.sql`vacuum analyze received_emails`
    await db.sql.begin(async (tx) => {
      // rows this transaction read from the table, by scans and through indexes
      const read = async () => (await tx<{ rows: number }[]>`select (seq_tup_read + idx_tup_fetch)::int as rows from pg_stat_xact_user_tables where relname = 'received_emails'`)[0]?.rows ?? 0
      const before = await read()
      const page = await listConversationPage(tx, user.id, { providerId, category: 'inbox', limit: 50, offset: 0 })
      expect(new Set(page.map((r) => r.threadId)).size).toBe(50)
      expect(page[0].threadId).toBe(threads[1999])
      // the newest 400 and the page's 150: not the 6,000 (grouped all of them before)
      expect(await read() - before).toBeLessThanOrEqual(600)
    })
  })

  it('ranks threads the same on the pages read from the newest messages and on those that group everything, ties and long threads included', async () => {
    const user = (await insertUser(db.sql, { email: 'same-order@veilmail.test', authMethod: 'email' }))!
    const providerId = randomUUID()
    await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: 'same-order@example.test', credentials: Buffer.from('x') })
    const folder = await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true)
    // 700 threads: many newest messages at the same minute (ties broken by thread id), some of
    // 30 messages (more than the 8 a thread the first pages read), spread over the whole list
    const random = seededRandom(26)
    const threads = Array.from({ length: 700 }, () => randomUUID())
    let uid = 0
    const rows = threads.flatMap((threadId, t) => Array.from({ length: t % 23 === 0 ? 30 : 1 + Math.floor(random() * 3) }, () => stored({
      userId: user.id, providerId, folderId: folder.id, uid: ++uid, threadId, receivedAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 400) * 60_000),
    })))
    await insertReceivedEmails(db.sql, rows)
    const newest = new Map<string, number>()
    for (const r of rows) newest.set(r.threadId, Math.max(newest.get(r.threadId) ?? 0, r.receivedAt.getTime()))
    const expected = [...newest].sort(([a, x], [b, y]) => y - x || (a < b ? 1 : -1)).map(([threadId]) => threadId)
    // pages 1-5 from the newest messages, 6 onwards by grouping: each page holds the threads of its
    // place in one order (its rows are by message, so ties between threads may show either way round)
    for (let offset = 0; offset < 700; offset += 50) {
      const page = await listConversationPage(db.sql, user.id, { providerId, category: 'inbox', limit: 50, offset })
      expect([...new Set(page.map((r) => r.threadId))].sort()).toEqual(expected.slice(offset, offset + 50).sort())
    }
  })
})
