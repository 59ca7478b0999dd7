// Storing synced mail: one multi-row insert per fetch batch, prepared once whatever the batch holds.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSql, type Sql } from './client.ts'
import { insertEmailProvider } from './email-providers.ts'
import { upsertFolder } from './mailbox-folders.ts'
import { insertReceivedEmails, type NewReceivedEmail } from './received-emails.ts'
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
