// Storing synced mail: one multi-row insert per fetch batch, prepared once whatever the batch holds.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSql, type Sql } from './client.ts'
import { insertEmailProvider } from './email-providers.ts'
import { upsertFolder } from './mailbox-folders.ts'
import { insertReceivedEmails, threadsByMessageIds, threadsBySubject, threadsNamingMessageIds, type NewReceivedEmail } from './received-emails.ts'
import { insertUser } from './users.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

describe('insertReceivedEmails', () => {
  it('prepares one statement for batches with and without HTML bodies, and stores both', async () => {
    const user = (await insertUser(db.sql, { email: 'batches@veilmail.test', authMethod: 'email' }))!
    const providerId = randomUUID()
    await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: 'batches@example.test', credentials: Buffer.from('x') })
    const folder = await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true)
    let uid = 0
    const email = (html: boolean): NewReceivedEmail => ({
      id: randomUUID(), userId: user.id, providerId, folderId: folder.id, uid: ++uid, messageId: null, inReplyTo: null, referenceIds: [],
      threadId: randomUUID(), threadSubject: 's', subject: 'S', fromAddress: 'a@example.test', fromName: '', toAddress: 'b@example.test',
      ccAddresses: '', bccAddresses: '', receivedAt: new Date(), size: 10, isRead: false, isStarred: false, isAnswered: false, hasAttachments: false,
      modseq: null, preview: Buffer.from('p'), bodyText: Buffer.from('t'), bodyHtml: html ? Buffer.from('<p>h</p>') : null,
    })
    // one connection, so its prepared statements are the ones this session sees
    const one: Sql = createSql(db.url, { max: 1 })
    try {
      for (const batch of [[email(false), email(false)], [email(true), email(false)], [email(false), email(true)], [email(true), email(true)]]) {
        expect((await insertReceivedEmails(one, batch)).size).toBe(2)
      }
      const [{ statements }] = await one<{ statements: number }[]>`
        select count(*)::int as statements from pg_prepared_statements where ltrim(statement, E' \n') like 'insert into received_emails%'`
      expect(statements).toBe(1)
    } finally {
      await one.end()
    }
    const rows = await db.sql<{ html: number }[]>`select count(body_html)::int as html from received_emails where provider_id = ${providerId}`
    expect(rows[0].html).toBe(4)
  })
})

describe('the conversation lookups of a synced batch', () => {
  it('read each Message-ID and subject on its index, not the whole mailbox so far (a first sync, no statistics yet)', async () => {
    const user = (await insertUser(db.sql, { email: 'lookups@veilmail.test', authMethod: 'email' }))!
    const providerId = randomUUID()
    await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: 'lookups@example.test', credentials: Buffer.from('x') })
    const folder = await upsertFolder(db.sql, providerId, 'INBOX', '\\Inbox', true)
    // 3,000 messages stored as a sync stores them, 50 a statement; every tenth a reply naming the one before
    const thread = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    for (let start = 0; start < 3000; start += 50) {
      await insertReceivedEmails(db.sql, Array.from({ length: 50 }, (_, k): NewReceivedEmail => {
        const i = start + k
        const reply = i % 10 === 1
        return {
          id: randomUUID(), userId: user.id, providerId, folderId: folder.id, uid: i + 1, messageId: `<m${i}@example.test>`,
          inReplyTo: reply ? `<m${i - 1}@example.test>` : null, referenceIds: reply ? [`<m${i - 1}@example.test>`] : [],
          threadId: thread(reply ? i - 1 : i), threadSubject: `subject ${i}`, subject: `Subject ${i}`, fromAddress: 'a@example.test', fromName: '',
          toAddress: 'b@example.test', ccAddresses: '', bccAddresses: '', receivedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000), size: 10,
          isRead: false, isStarred: false, isAnswered: false, hasAttachments: false, modseq: null, preview: Buffer.from('p'), bodyText: Buffer.from('t'), bodyHtml: null,
        }
      }))
    }
    // a batch naming 50 stored messages (ten of them with a stored reply) and 50 stored subjects
    const ids = Array.from({ length: 50 }, (_, k) => `<m${1000 + k}@example.test>`)
    const subjects = Array.from({ length: 50 }, (_, k) => `subject ${2000 + k}`)
    await db.sql.begin(async (tx) => {
      const byId = await threadsByMessageIds(tx, user.id, ids)
      const namers = await threadsNamingMessageIds(tx, user.id, ids)
      const bySubject = await threadsBySubject(tx, user.id, subjects)
      expect(byId.size).toBe(50)
      expect(byId.get('<m1001@example.test>')).toBe(thread(1000))
      // the five stored replies (each names its parent in In-Reply-To and in References)
      expect(new Set(namers.map((n) => n.threadId))).toEqual(new Set([1000, 1010, 1020, 1030, 1040].map(thread)))
      expect(namers.find((n) => n.named.includes('<m1010@example.test>'))?.threadId).toBe(thread(1010))
      expect(bySubject.size).toBe(50)
      expect(bySubject.get('subject 2001')).toBe(thread(2000))
      // rows this transaction read from the table: about one per key, not the user's 3,000 per lookup
      const [read] = await tx<{ rows: number }[]>`
        select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int as rows from pg_stat_xact_user_tables where relname = 'received_emails'`
      expect(read.rows).toBeLessThan(500)
    })
    // References are looked up in the GIN index itself, not in a pending list every search reads whole
    const [gin] = await db.sql<{ options: string[] }[]>`select reloptions as options from pg_class where relname = 'received_emails_reference_ids_idx'`
    expect(gin.options).toContain('fastupdate=off')
  })
})
