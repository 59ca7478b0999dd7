// A search's page (searchConversationPage): from the newest mail when that holds the page's
// conversations (then exact, total uncounted), else from every match with its total; the same rows
// either way.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMailSearch } from '../shared/mail-search-query.ts'
import { insertEmailProvider } from './email-providers.ts'
import { upsertFolder } from './mailbox-folders.ts'
import { insertReceivedEmails, searchConversationPage, type NewReceivedEmail } from './received-emails.ts'
import { insertUser } from './users.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
let userId: string
const busy = randomUUID()

beforeAll(async () => {
  db = await createTestDatabase()
  userId = (await insertUser(db.sql, { email: 'pages@veilmail.test', authMethod: 'email' }))!.id
  const other = (await insertUser(db.sql, { email: 'other-pages@veilmail.test', authMethod: 'email' }))!.id
  const stored = async (user: string, rows: { subject: string; minute: number; threadId?: string }[]) => {
    const providerId = randomUUID()
    await insertEmailProvider(db.sql, { id: providerId, userId: user, provider: 'other', email: `${randomUUID()}@example.test`, credentials: Buffer.from('x') })
    const folder = await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true)
    await insertReceivedEmails(db.sql, rows.map((r, i): NewReceivedEmail => ({
      id: randomUUID(), userId: user, providerId, folderId: folder.id, uid: i + 1, messageId: null, inReplyTo: null, referenceIds: [], threadId: r.threadId ?? randomUUID(),
      threadSubject: r.subject.toLowerCase(), subject: r.subject, fromAddress: 'a@example.test', fromName: '', toAddress: 'b@example.test', ccAddresses: '', bccAddresses: '',
      receivedAt: new Date(Date.UTC(2026, 0, 1) + r.minute * 60_000), size: 10, isRead: false, isStarred: false, isAnswered: false, hasAttachments: false,
      modseq: null, preview: Buffer.from('p'), bodyText: null, bodyHtml: null,
    })))
  }
  // minute 0 (oldest): the one "rare" message; then 30 singles, "match" and "other" in turn; newest: 8 replies of one busy thread
  await stored(userId, [
    { subject: 'Rare bird', minute: 0 },
    ...Array.from({ length: 30 }, (_, i) => ({ subject: `${i % 2 ? 'Other' : 'Match'} ${i + 1}`, minute: i + 1 })),
    ...Array.from({ length: 8 }, (_, i) => ({ subject: `Busy match ${i + 1}`, minute: 100 + i, threadId: busy })),
  ])
  await stored(other, [{ subject: 'Match of another user', minute: 500 }, { subject: 'Rare bird of another user', minute: 501 }])
})
afterAll(() => db.drop())

const search = (q: string) => {
  const parsed = parseMailSearch(q)
  if (!parsed.ok) throw new Error(parsed.message)
  return { search: parsed.search, bodyIds: [] }
}
const page = async (q: string, offset: number, limit: number, windowPerThread: number) => {
  const result = await searchConversationPage(db.sql, userId, { category: 'inbox', offset, limit, search: search(q) }, windowPerThread)
  return { subjects: result.rows.map((r) => r.subject), total: result.total, more: result.more }
}

describe('searchConversationPage', () => {
  it('answers a page from the newest mail when it holds the page, the same rows as from every match', async () => {
    // window of 3 × 2 = 6 newest messages: the busy thread's 6 newest, one conversation: too few, so every match is read
    expect(await page('match', 0, 2, 3)).toEqual({ subjects: ['Busy match 8', 'Busy match 7', 'Busy match 6', 'Busy match 5', 'Busy match 4', 'Busy match 3', 'Busy match 2', 'Busy match 1', 'Match 29'], total: 16 })
    // window of 2 × 10 = 20 newest: the busy thread and "Match 29" … "Match 19" in it: the page from there, uncounted
    const fromWindow = await page('match', 1, 1, 10)
    expect(fromWindow).toEqual({ subjects: ['Match 29'], more: true })
    expect(await page('match', 1, 1, 1000)).toEqual({ subjects: ['Match 29'], total: 16 })
    for (const offset of [0, 3, 7]) {
      const windowed = await page('match', offset, 4, 3)
      const everything = await page('match', offset, 4, 1000)
      expect(windowed.subjects).toEqual(everything.subjects)
      // the first page's window holds 3 conversations of 4: it read every match
      expect([windowed.more, windowed.total]).toEqual(offset === 0 ? [undefined, 16] : [true, undefined])
    }
  })

  it('looks through the newest mail in one walk of the list index, not a lookup of each message', async () => {
    await db.sql.begin(async (tx) => {
      // this session's index scans not yet in the cumulative statistics (pg_stat_xact_*): they grow only by this transaction's
      const scans = async () => (await tx<{ scans: number }[]>`select idx_scan::int as scans from pg_stat_xact_user_tables where relname = 'received_emails'`)[0]?.scans ?? 0
      const before = await scans()
      // a window of the 20 newest messages holding the page's one conversation
      const result = await searchConversationPage(tx, userId, { category: 'inbox', offset: 1, limit: 1, search: search('match') }, 10)
      expect([result.rows.map((r) => r.subject), result.more]).toEqual([['Match 29'], true])
      // the walk, then the page's conversation's messages
      expect(await scans() - before).toBe(2)
    })
  })

  it('reads every match for a rare word, and never another user\'s', async () => {
    expect(await page('rare', 0, 50, 2)).toEqual({ subjects: ['Rare bird'], total: 1 })
    // a window of the 2 newest holds no match: every match is read
    expect(await page('rare', 0, 1, 2)).toEqual({ subjects: ['Rare bird'], total: 1 })
    expect(await page('user', 0, 50, 2)).toEqual({ subjects: [], total: 0 })
    expect(await page('rare', 50, 50, 2)).toEqual({ subjects: [], total: undefined })
  })
})
