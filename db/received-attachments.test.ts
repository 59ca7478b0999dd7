// Attachments of a synced batch, copied in as binary: read back as the insert they replaced stored them.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { insertEmailProvider } from './email-providers.ts'
import { upsertFolder } from './mailbox-folders.ts'
import { findAttachment, insertAttachments, type NewAttachment } from './received-attachments.ts'
import { insertReceivedEmails } from './received-emails.ts'
import { insertUser } from './users.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

async function storedEmail(): Promise<{ userId: string; emailId: string }> {
  const user = (await insertUser(db.sql, { email: `${randomUUID()}@veilmail.test`, authMethod: 'email' }))!
  const providerId = randomUUID()
  await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: `${providerId}@example.test`, credentials: Buffer.from('x') })
  const folder = await upsertFolder(db.sql, providerId, 'INBOX', null, true)
  const emailId = randomUUID()
  await insertReceivedEmails(db.sql, [{
    id: emailId, userId: user.id, providerId, folderId: folder.id, uid: 1, messageId: null, inReplyTo: null, referenceIds: [], threadId: randomUUID(),
    threadSubject: '', subject: '', fromAddress: '', fromName: '', toAddress: '', ccAddresses: '', bccAddresses: '', receivedAt: new Date(), size: 1,
    isRead: false, isStarred: false, isAnswered: false, hasAttachments: true, modseq: null, preview: Buffer.from('p'), bodyText: null, bodyHtml: null,
  }])
  return { userId: user.id, emailId }
}

/** The insert these attachments were stored with before the COPY, as the reference. */
async function insertAsBefore(a: NewAttachment): Promise<void> {
  await db.sql`insert into received_attachments (id, email_id, user_id, filename, content_type, content_id, size, content)
    values (${a.id}, ${a.emailId}, ${a.userId}, ${a.filename}, ${a.contentType}, ${a.contentId}, ${a.size}, decode(${a.content.toString('base64')}, 'base64'))`
}

// Contents are compared as digests: vitest takes minutes to show how two 1 MB buffers differ.
const digest = (bytes: Buffer) => `${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`

async function rendered(id: string): Promise<unknown> {
  const [row] = await db.sql<{ row: unknown }[]>`
    select to_jsonb(a) - array['id', 'content'] || jsonb_build_object('content', sha256(content)::text) as row from received_attachments a where id = ${id}`
  return row?.row
}

it('copies every field as the insert it replaced stored it: a NULL Content-ID, non-ASCII names, contents of 0 bytes and 1 MB', async () => {
  const { userId, emailId } = await storedEmail()
  const big = randomBytes(1 << 20)
  const attachment = (filename: string, contentId: string | null, content: Buffer): NewAttachment =>
    ({ id: randomUUID(), emailId, userId, filename, contentType: 'application/pdf', contentId, size: content.length, content })
  const copied = [attachment('Rechnung März "2026", {a}\\b.pdf', '<part1@example.test>', big), attachment('empty.txt', null, Buffer.alloc(0))]
  const reference = copied.map((a) => ({ ...a, id: randomUUID() }))
  await insertAttachments(db.sql, copied)
  for (const a of reference) await insertAsBefore(a)
  for (const [i, a] of copied.entries()) {
    const { userId: _, content, ...meta } = a
    const found = await findAttachment(db.sql, userId, emailId, a.id)
    expect(found && { ...found, content: digest(found.content) }).toEqual({ ...meta, content: digest(content) })
    expect(await rendered(a.id)).toEqual(await rendered(reference[i].id))
  }
})

it('refuses U+0000 in a file name, and stores nothing of the batch', async () => {
  const { userId, emailId } = await storedEmail()
  const content = Buffer.from('x')
  await expect(insertAttachments(db.sql, [
    { id: randomUUID(), emailId, userId, filename: 'a.txt', contentType: 'text/plain', contentId: null, size: 1, content },
    { id: randomUUID(), emailId, userId, filename: 'nul\u0000.txt', contentType: 'text/plain', contentId: null, size: 1, content },
  ])).rejects.toThrow()
  expect((await db.sql`select id from received_attachments where email_id = ${emailId}`).length).toBe(0)
})
