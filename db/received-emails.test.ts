// Storing synced mail: a batch by binary COPY, read back as the insert it replaced stores it, and
// that insert as the way round a UID already stored.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSql, type Sql } from './client.ts'
import { insertEmailProvider } from './email-providers.ts'
import { upsertFolder } from './mailbox-folders.ts'
import { insertAttachments } from './received-attachments.ts'
import { insertReceivedEmails, threadsByMessageIds, threadsBySubject, threadsNamingMessageIds, type NewReceivedEmail } from './received-emails.ts'
import { insertUser } from './users.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

interface Mailbox { userId: string; providerId: string; folders: string[] }

async function mailbox(folders = 1): Promise<Mailbox> {
  const user = (await insertUser(db.sql, { email: `${randomUUID()}@veilmail.test`, authMethod: 'email' }))!
  const providerId = randomUUID()
  await insertEmailProvider(db.sql, { id: providerId, userId: user.id, provider: 'other', email: `${providerId}@example.test`, credentials: Buffer.from('x') })
  const paths = ['INBOX', 'Archive'].slice(0, folders)
  return { userId: user.id, providerId, folders: await Promise.all(paths.map(async (path) => (await upsertFolder(db.sql, providerId, path, null, true)).id)) }
}

/** Every column set, in the forms that a text encoding could get wrong. */
function full(m: Mailbox, folderId: string, uid: number): NewReceivedEmail {
  return {
    id: randomUUID(), userId: m.userId, providerId: m.providerId, folderId, uid, messageId: '<m1@example.test>', inReplyTo: '<p1@example.test>',
    referenceIds: ['<p0@example.test>', 'a "quoted" one', 'back\\slash', 'comma, {braces}', 'Zürich 東京 👋', '', 'NULL'],
    threadId: randomUUID(), threadSubject: 'réunion', subject: 'Re: Réunion 👋 "x" \\ {y}', fromAddress: 'renée@example.test',
    fromName: 'Smith, Ann', toAddress: 'a@example.test, b@example.test', ccAddresses: 'c@example.test', bccAddresses: 'd@example.test',
    receivedAt: new Date('2026-03-03T09:00:00.456Z'), size: 2 ** 31 - 1, isRead: true, isStarred: true, isAnswered: true, hasAttachments: true,
    modseq: 2n ** 63n - 1n, preview: Buffer.alloc(0), bodyText: randomBytes(1 << 20), bodyHtml: Buffer.from([0, 1, 0x5c, 0x27, 0xff]),
  }
}

/** Every nullable column NULL, the array empty, a date before 2000 (and 1970). */
function sparse(m: Mailbox, folderId: string, uid: number): NewReceivedEmail {
  return {
    id: randomUUID(), userId: m.userId, providerId: m.providerId, folderId, uid, messageId: null, inReplyTo: null, referenceIds: [],
    threadId: randomUUID(), threadSubject: '', subject: '', fromAddress: '', fromName: '', toAddress: '', ccAddresses: '', bccAddresses: '',
    receivedAt: new Date('1969-07-20T20:17:40.123Z'), size: 0, isRead: false, isStarred: false, isAnswered: false, hasAttachments: false,
    modseq: null, preview: Buffer.from('p'), bodyText: null, bodyHtml: null,
  }
}

// Byte strings are compared as digests: vitest takes minutes to show how two 1 MB buffers differ.
const digest = (bytes: Buffer | null) => bytes && `${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`
const digested = (e: NewReceivedEmail | undefined) => e && { ...e, preview: digest(e.preview), bodyText: digest(e.bodyText), bodyHtml: digest(e.bodyHtml) }

/** A row as Postgres renders it, without what differs between copies of one message. */
async function renderedRows(ids: string[]): Promise<Map<string, unknown>> {
  const rows = await db.sql<{ id: string; row: unknown }[]>`
    select id, to_jsonb(e) - array['id', 'folder_id', 'synced_at', 'created_at', 'preview', 'body_text', 'body_html']
      || jsonb_build_object('preview', sha256(preview)::text, 'body_text', sha256(body_text)::text, 'body_html', sha256(body_html)::text) as row
    from received_emails e where id = any(${ids}::uuid[])`
  return new Map(rows.map((r) => [r.id, r.row]))
}

/** A row read back, field for field, in the forms the input has. */
async function readBack(id: string): Promise<NewReceivedEmail | undefined> {
  const [row] = await db.sql<NewReceivedEmail[]>`
    select id, user_id, provider_id, folder_id, uid::float8 as uid, message_id, in_reply_to, reference_ids, thread_id, thread_subject, subject,
      from_address, from_name, to_address, cc_addresses, bcc_addresses, received_at, size, is_read, is_starred, is_answered, has_attachments,
      modseq, preview, body_text, body_html
    from received_emails where id = ${id}`
  return row && { ...row, modseq: row.modseq === null ? null : BigInt(row.modseq) }
}

/** Statements this session has prepared for an insert into received_emails (the COPY prepares none). */
async function preparedInserts(one: Sql): Promise<number> {
  const [{ statements }] = await one<{ statements: number }[]>`
    select count(*)::int as statements from pg_prepared_statements where ltrim(statement, E' \n') like 'insert into received_emails%'`
  return statements
}

describe('insertReceivedEmails', () => {
  it('copies every field as the insert it replaced stores it: NULLs, arrays, non-ASCII, int64, dates, bytea of 0 bytes and 1 MB', async () => {
    const m = await mailbox(2)
    const copied = [full(m, m.folders[0], 2 ** 32 - 1), sparse(m, m.folders[0], 1)]
    // the same messages in the second folder, through the insert: a UID already stored leads the batch there
    const inserted = copied.map((e) => ({ ...e, id: randomUUID(), folderId: m.folders[1] }))
    const one: Sql = createSql(db.url, { max: 1 })
    try {
      expect(await insertReceivedEmails(one, copied)).toEqual(new Set(copied.map((e) => e.id)))
      expect(await preparedInserts(one)).toBe(0)
      expect(await insertReceivedEmails(one, [{ ...copied[1], id: randomUUID() }, ...inserted])).toEqual(new Set(inserted.map((e) => e.id)))
      expect(await preparedInserts(one)).toBe(1)
    } finally {
      await one.end()
    }
    for (const email of copied) expect(digested(await readBack(email.id))).toEqual(digested(email))
    const rendered = await renderedRows([...copied, ...inserted].map((e) => e.id))
    expect(rendered.size).toBe(4)
    expect(rendered.get(copied[0].id)).toEqual(rendered.get(inserted[0].id))
    expect(rendered.get(copied[1].id)).toEqual(rendered.get(inserted[1].id))
  })

  it('leaves a UID already stored as it was, stores the rest of its batch and answers only their ids', async () => {
    const m = await mailbox()
    const first = [sparse(m, m.folders[0], 1), sparse(m, m.folders[0], 2)]
    await insertReceivedEmails(db.sql, first)
    const again = { ...sparse(m, m.folders[0], 2), subject: 'fetched again' }
    const next = [sparse(m, m.folders[0], 3), again, sparse(m, m.folders[0], 4)]
    expect(await insertReceivedEmails(db.sql, next)).toEqual(new Set([next[0].id, next[2].id]))
    const rows = await db.sql<{ id: string; uid: number; subject: string }[]>`
      select id, uid::float8 as uid, subject from received_emails where folder_id = ${m.folders[0]} order by uid`
    expect(rows).toEqual([first[0], first[1], next[0], next[2]].map((e) => ({ id: e.id, uid: e.uid, subject: '' })))
    const [counts] = await db.sql<{ total: number }[]>`select total from mailbox_counts where folder_id = ${m.folders[0]}`
    expect(counts.total).toBe(4)
  })

  // Postgres checks a COPY's unique keys 1,000 rows at a time (a sync batch is 50: at its end),
  // so a stored UID leads 1,000 rows to be met while megabytes of the batch are still to be sent
  it('takes the same way round a stored UID that Postgres meets while the batch is still being sent', async () => {
    const m = await mailbox()
    const stored = sparse(m, m.folders[0], 1)
    await insertReceivedEmails(db.sql, [stored])
    const rest = Array.from({ length: 1008 }, (_, i) => ({ ...sparse(m, m.folders[0], i + 2), bodyText: i < 1000 ? null : randomBytes(1 << 20) }))
    expect(await insertReceivedEmails(db.sql, [{ ...stored, id: randomUUID() }, ...rest])).toEqual(new Set(rest.map((e) => e.id)))
    const [{ count }] = await db.sql<{ count: number }[]>`select count(*)::int from received_emails where folder_id = ${m.folders[0]}`
    expect(count).toBe(1009)
  })

  it('leaves nothing when the transaction it ran in is rolled back, the way round a stored UID included', async () => {
    const m = await mailbox()
    const batch = [sparse(m, m.folders[0], 1), sparse(m, m.folders[0], 2)]
    const rolledBack = new Error('rolled back')
    await expect(db.sql.begin(async (tx) => {
      expect((await insertReceivedEmails(tx, batch)).size).toBe(2)
      await insertAttachments(tx, [{ id: randomUUID(), emailId: batch[0].id, userId: m.userId, filename: 'a.txt', contentType: 'text/plain', contentId: null, size: 1, content: Buffer.from('a') }])
      expect((await insertReceivedEmails(tx, [sparse(m, m.folders[0], 2), sparse(m, m.folders[0], 3)])).size).toBe(1)
      expect((await tx`select id from received_emails where folder_id = ${m.folders[0]}`).length).toBe(3)
      throw rolledBack
    })).rejects.toBe(rolledBack)
    const [left] = await db.sql<{ emails: number; attachments: number; counts: number }[]>`
      select (select count(*)::int from received_emails where provider_id = ${m.providerId}) as emails,
        (select count(*)::int from received_attachments where user_id = ${m.userId}) as attachments,
        (select count(*)::int from mailbox_counts where provider_id = ${m.providerId} and total > 0) as counts`
    expect(left).toEqual({ emails: 0, attachments: 0, counts: 0 })
  })

  it('refuses U+0000 in a text column as the insert did (22021), and stores nothing of the batch', async () => {
    const m = await mailbox()
    const batch = [sparse(m, m.folders[0], 1), { ...sparse(m, m.folders[0], 2), subject: 'nul\u0000here' }]
    await expect(insertReceivedEmails(db.sql, batch)).rejects.toMatchObject({ code: '22021' })
    // refused as the first row is read, while 8 MB are still to be sent
    const first = [{ ...sparse(m, m.folders[0], 1), fromName: 'nul\u0000here' }, ...Array.from({ length: 8 }, (_, i) => ({ ...sparse(m, m.folders[0], i + 2), bodyText: randomBytes(1 << 20) }))]
    await expect(insertReceivedEmails(db.sql, first)).rejects.toMatchObject({ code: '22021' })
    expect((await db.sql`select id from received_emails where provider_id = ${m.providerId}`).length).toBe(0)
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
      // rows read from the table so far: the view also counts what this connection's earlier
      // transactions read until its statistics are flushed (at most once a second), so the
      // lookups' reads are the difference
      const readRows = async () => (await tx<{ rows: number }[]>`
        select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int as rows from pg_stat_xact_user_tables where relname = 'received_emails'`)[0]?.rows ?? 0
      const before = await readRows()
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
      // rows the lookups read from the table: about one per key, not the user's 3,000 per lookup
      expect(await readRows() - before).toBeLessThan(500)
    })
    // References are looked up in the GIN index itself, not in a pending list every search reads whole
    const [gin] = await db.sql<{ options: string[] }[]>`select reloptions as options from pg_class where relname = 'received_emails_reference_ids_idx'`
    expect(gin.options).toContain('fastupdate=off')
  })
})
