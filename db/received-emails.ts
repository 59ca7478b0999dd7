// received_emails: mail synced from connected mailboxes. Lists and counts read only here (never
// IMAP on a page load); the partial indexes of migration 0030 keep a page of 50, the counts and
// a conversation fast at 100,000 messages per user; the counts are kept per folder by triggers
// (migrations 0030, 0044). Sealed columns are opened by the caller.
import { log } from '../lib/log.ts'
import type { EmailListView } from '../shared/email-schemas.ts'
import { copyData, copyStatement, type CopyColumn } from './binary-copy.ts'
import type { Db } from './client.ts'
import { CopyRefusedError, copyIn } from './copy-in.ts'
import { searchCondition, type StoredSearch } from './mail-search.ts'

export type EmailCategory = 'inbox' | 'unread' | 'starred'

/** A list row as the API shows it, with the date as read and the preview still sealed. */
export interface ReceivedEmailListRow extends Omit<EmailListView, 'receivedAt' | 'preview'> {
  receivedAt: Date
  preview: Buffer | null
}

export interface ReceivedEmailRow extends ReceivedEmailListRow {
  userId: string
  uid: number
  inReplyTo: string | null
  referenceIds: string[]
  ccAddresses: string
  bccAddresses: string
  replyTo: string
  bodyText: Buffer | null
  bodyHtml: Buffer | null
  syncedAt: Date
  createdAt: Date
}

export interface NewReceivedEmail {
  id: string
  userId: string
  providerId: string
  folderId: string
  uid: number
  messageId: string | null
  inReplyTo: string | null
  referenceIds: string[]
  threadId: string
  threadSubject: string
  subject: string
  fromAddress: string
  fromName: string
  toAddress: string
  ccAddresses: string
  bccAddresses: string
  /** Reply-To's addresses ('' or absent: none) */
  replyTo?: string
  receivedAt: Date
  size: number
  isRead: boolean
  isStarred: boolean
  isAnswered: boolean
  hasAttachments: boolean
  modseq: bigint | null
  preview: Buffer
  bodyText: Buffer | null
  bodyHtml: Buffer | null
}

/** received_emails' columns as a batch is copied in (the others take their defaults). */
const copyColumns: CopyColumn<NewReceivedEmail>[] = [
  { name: 'id', type: 'uuid', value: (e) => e.id }, { name: 'user_id', type: 'uuid', value: (e) => e.userId },
  { name: 'provider_id', type: 'uuid', value: (e) => e.providerId }, { name: 'folder_id', type: 'uuid', value: (e) => e.folderId },
  { name: 'uid', type: 'bigint', value: (e) => e.uid }, { name: 'message_id', type: 'text', value: (e) => e.messageId },
  { name: 'in_reply_to', type: 'text', value: (e) => e.inReplyTo }, { name: 'reference_ids', type: 'text[]', value: (e) => e.referenceIds },
  { name: 'thread_id', type: 'uuid', value: (e) => e.threadId }, { name: 'thread_subject', type: 'text', value: (e) => e.threadSubject },
  { name: 'subject', type: 'text', value: (e) => e.subject }, { name: 'from_address', type: 'text', value: (e) => e.fromAddress },
  { name: 'from_name', type: 'text', value: (e) => e.fromName }, { name: 'to_address', type: 'text', value: (e) => e.toAddress },
  { name: 'cc_addresses', type: 'text', value: (e) => e.ccAddresses }, { name: 'bcc_addresses', type: 'text', value: (e) => e.bccAddresses },
  { name: 'reply_to', type: 'text', value: (e) => e.replyTo ?? '' },
  { name: 'received_at', type: 'timestamptz', value: (e) => e.receivedAt }, { name: 'size', type: 'integer', value: (e) => e.size },
  { name: 'is_read', type: 'boolean', value: (e) => e.isRead }, { name: 'is_starred', type: 'boolean', value: (e) => e.isStarred },
  { name: 'is_answered', type: 'boolean', value: (e) => e.isAnswered }, { name: 'has_attachments', type: 'boolean', value: (e) => e.hasAttachments },
  { name: 'modseq', type: 'bigint', value: (e) => e.modseq }, { name: 'preview', type: 'bytea', value: (e) => e.preview },
  { name: 'body_text', type: 'bytea', value: (e) => e.bodyText }, { name: 'body_html', type: 'bytea', value: (e) => e.bodyHtml },
]
const COPY_EMAILS = copyStatement('received_emails', copyColumns)

/**
 * A fetch batch in one statement (one trigger run for the counts), by binary COPY (db/binary-copy.ts:
 * the sealed bodies go to the socket as their bytes, and the statement is the same for every
 * batch). Answers the ids stored: a UID of this folder already stored (a resumed or repeated sync)
 * is left as it was. COPY cannot skip a row, so the batch is copied in a savepoint, and one that
 * meets a stored UID is rolled back and inserted by insertSkippingStored instead. Nothing else may
 * run on `db` until this resolves (see copyIn); given the pool, it runs in a transaction of its own.
 */
export async function insertReceivedEmails(db: Db, emails: NewReceivedEmail[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set()
  if (!('savepoint' in db)) return db.begin((tx) => insertReceivedEmails(tx, emails))
  const chunks = copyData(copyColumns, emails)
  try {
    await db.savepoint((savepoint) => copyIn(savepoint, COPY_EMAILS, chunks))
    return new Set(emails.map((e) => e.id))
  } catch (error) {
    // a refusal without its reason is retried too: the insert skips a stored UID and raises any other reason itself
    if ((error as { code?: string }).code !== '23505' && !(error instanceof CopyRefusedError)) throw error
    const stored = await insertSkippingStored(db, emails)
    // every row went in: the COPY met something the insert did not (its reason is in the server's
    // log), and every batch like it would take the slower way unnoticed
    if (stored.size === emails.length) log.warn('received_emails.copy_refused', { rows: emails.length })
    return stored
  }
}

/**
 * Sealed values travel as base64 and are decoded by Postgres (`decode(…, 'base64')`): postgres.js
 * sends every parameter as text, and its bytea text is hex, twice the bytes; base64 is a third
 * more, so a batch's statement is a third smaller on the wire and in both processes' memory.
 */
const base64 = (value: Buffer | null) => (value === null ? null : value.toString('base64'))

/**
 * The batch as one insert that leaves a stored UID as it was: the way round a COPY that met one.
 * A null body is as untyped as a body's base64, so a batch's statement is the same whatever its
 * mix of HTML and plain mail, and postgres.js prepares it once per batch size.
 */
async function insertSkippingStored(db: Db, emails: NewReceivedEmail[]): Promise<Set<string>> {
  const rows = emails.map((e, i) => db`${i ? db`,` : db``}(${e.id}, ${e.userId}, ${e.providerId}, ${e.folderId}, ${e.uid}, ${e.messageId}, ${e.inReplyTo},
    ${e.referenceIds}, ${e.threadId}, ${e.threadSubject}, ${e.subject}, ${e.fromAddress}, ${e.fromName}, ${e.toAddress}, ${e.ccAddresses},
    ${e.bccAddresses}, ${e.replyTo ?? ''}, ${e.receivedAt}, ${e.size}, ${e.isRead}, ${e.isStarred}, ${e.isAnswered}, ${e.hasAttachments},
    ${e.modseq === null ? null : e.modseq.toString()}, decode(${base64(e.preview)}, 'base64'), decode(${base64(e.bodyText)}, 'base64'),
    decode(${base64(e.bodyHtml)}, 'base64'))`)
  const inserted = await db<{ id: string }[]>`
    insert into received_emails (id, user_id, provider_id, folder_id, uid, message_id, in_reply_to, reference_ids, thread_id, thread_subject, subject,
      from_address, from_name, to_address, cc_addresses, bcc_addresses, reply_to, received_at, size, is_read, is_starred, is_answered, has_attachments, modseq,
      preview, body_text, body_html)
    values ${rows} on conflict (folder_id, uid) do nothing returning id`
  return new Set(inserted.map((r) => r.id))
}

// The three lookups of a batch's conversations (workers/sync/mail-threads.ts) look each key up on
// its own index, one key at a time (a lateral subquery per key, kept from being flattened into a
// join by `limit`/`offset 0`): the planner cannot choose to scan every message of the user and
// filter or hash them, which it does with `= any(array)` or a join while the table's statistics
// still describe it as small (a first sync) — each batch of a 10,000-message sync then read the
// whole mailbox so far.

/** Message-ID → conversation of the user's stored messages among `messageIds`. */
export async function threadsByMessageIds(db: Db, userId: string, messageIds: string[]): Promise<Map<string, string>> {
  if (messageIds.length === 0) return new Map()
  const rows = await db<{ messageId: string; threadId: string }[]>`
    select m.message_id, e.thread_id from unnest(${messageIds}::text[]) as m(message_id)
    cross join lateral (select thread_id from received_emails where user_id = ${userId} and message_id = m.message_id offset 0) e`
  return new Map(rows.map((r) => [r.messageId, r.threadId]))
}

/**
 * Stored messages that name any of `messageIds` in In-Reply-To or References (replies that came
 * first), listed once per name they match. References are found through their GIN index alone
 * (`user_id` is checked only on what it finds, written so that no btree on it is a way in).
 */
export async function threadsNamingMessageIds(db: Db, userId: string, messageIds: string[]): Promise<{ threadId: string; named: string[] }[]> {
  if (messageIds.length === 0) return []
  return db<{ threadId: string; named: string[] }[]>`
    select e.thread_id, array_remove(array_prepend(e.in_reply_to, e.reference_ids), null) as named
    from unnest(${messageIds}::text[]) as m(id)
    cross join lateral (
      select thread_id, in_reply_to, reference_ids from received_emails where user_id = ${userId} and in_reply_to = m.id
      union all
      select thread_id, in_reply_to, reference_ids from received_emails where reference_ids @> array[m.id] and (user_id = ${userId}) is true
      offset 0) e`
}

/** The subject rule of docs/mail-flow.md: subject → the conversation of its newest stored message. */
export async function threadsBySubject(db: Db, userId: string, threadSubjects: string[]): Promise<Map<string, string>> {
  if (threadSubjects.length === 0) return new Map()
  const rows = await db<{ threadSubject: string; threadId: string }[]>`
    select s.thread_subject, e.thread_id from unnest(${threadSubjects}::text[]) as s(thread_subject)
    cross join lateral (
      select thread_id from received_emails where user_id = ${userId} and thread_subject = s.thread_subject order by received_at desc limit 1) e`
  return new Map(rows.map((r) => [r.threadSubject, r.threadId]))
}

/**
 * The ids of the messages matching `where`, each row locked, in id order. A statement that changes
 * several messages takes their locks this way first: two such statements on the same messages (the
 * sync storing flags of a folder while a conversation merge or an expunge touches some of its
 * messages) would otherwise lock them in the order each one's plan reads them, and could each hold a
 * row the other waits for until Postgres aborts one ("deadlock detected"). In one order, the second
 * waits for the first.
 */
const lockedInIdOrder = (db: Db, where: ReturnType<Db>) => db`select id from received_emails where ${where} order by id for update`

/** A message linked two conversations: the messages of `from` join `into` (rows locked in id order, see lockedInIdOrder). */
export async function mergeThreads(db: Db, userId: string, into: string, from: string[]): Promise<void> {
  await db`
    with locked as materialized (${lockedInIdOrder(db, db`user_id = ${userId} and thread_id = any(${from}::uuid[])`)})
    update received_emails e set thread_id = ${into} from locked where e.id = locked.id`
}

const listColumns = (db: Db) => db`
  id, provider_id, folder_id, message_id, thread_id, subject, from_address, from_name, to_address, received_at, size, is_read, is_starred, has_attachments, preview`

export interface ListQuery {
  providerId?: string
  folderId?: string
  category: EmailCategory
  limit: number
  offset: number
  /** only what the inbox search matches (db/mail-search.ts) */
  search?: StoredSearch
}

/**
 * One page, newest first, for all the user's accounts, one account or one folder. The API pages by
 * offset: the rows skipped are walked in a list index alone (an index-only scan down to the page's
 * first row), and only the page's own rows are read from the table.
 */
export async function listReceivedEmails(db: Db, userId: string, q: ListQuery): Promise<ReceivedEmailListRow[]> {
  const matching = db`${listScope(db, userId, q)} and not deleted ${searchCondition(db, q.search)}`
  // past the last row the subquery is null and so is the comparison: an empty page
  const fromPageStart = q.offset === 0 ? db`` : db`and (received_at, id) <= (
      select received_at, id from received_emails where ${matching} order by received_at desc, id desc offset ${q.offset} limit 1)`
  return db<ReceivedEmailListRow[]>`
    select ${listColumns(db)} from received_emails where ${matching} ${fromPageStart}
    order by received_at desc, id desc limit ${q.limit}`
}

/** For each conversation `t` of a page, its messages in the list, newest first (the page's rows, in that order). */
const threadMessages = (db: Db, userId: string, matching: ReturnType<typeof listScope>) => db`cross join lateral (
      select ${listColumns(db)} from received_emails
      where user_id = ${userId} and thread_id = t.thread_id and ${matching}
      order by received_at desc, id desc limit ${PAGE_THREAD_MESSAGES}) e
    order by e.received_at desc, e.id desc`

/** The most messages of one conversation a list page carries (as the detail's listConversation): a runaway thread must not make a page unbounded. */
export const PAGE_THREAD_MESSAGES = 200

/** The first pages of conversations are read from the newest messages alone, up to this many threads deep (5 pages). */
const NEWEST_WINDOW_THREADS = 250
/** How many of the newest messages that reading takes for each thread it needs. */
const NEWEST_WINDOW_MESSAGES_PER_THREAD = 8

/**
 * A page of conversations, the list's rows (issue 26 item 5: the pager counts what the rows are):
 * the threads with a message in the list, by their newest such message, `offset` and `limit`
 * counting threads; for each, its messages in the list, newest first, at most PAGE_THREAD_MESSAGES.
 *
 * A first page (issue 26, speed) is found among the list's newest messages (a walk down the list
 * index, 8 for each thread wanted) instead of grouping all of the user's mail (125 ms for 110,000
 * messages, 6 ms so): a thread whose newest message is newer than the oldest one read is ranked
 * exactly as the grouping would. When fewer such threads than the page needs are found (long
 * threads, a deep page), the statement groups everything, as it always did: the same order either way.
 */
export async function listConversationPage(db: Db, userId: string, q: ListQuery): Promise<ReceivedEmailListRow[]> {
  const matching = db`${listScope(db, userId, q)} and not deleted ${searchCondition(db, q.search)}`
  const needed = q.offset + q.limit
  const window = needed <= NEWEST_WINDOW_THREADS ? needed * NEWEST_WINDOW_MESSAGES_PER_THREAD : 0
  return db<ReceivedEmailListRow[]>`
    with recent as (
      select thread_id, received_at from received_emails where ${matching} order by received_at desc, id desc limit ${window}),
    recent_threads as (select thread_id, max(received_at) as newest from recent group by thread_id),
    window_ranks as (select ${window} > 0 and (
      (select count(*) from recent) < ${window}
      or (select count(*) from recent_threads where newest > (select min(received_at) from recent)) >= ${needed}) as exact),
    threads as (
      select thread_id, newest from recent_threads where (select exact from window_ranks)
      union all
      select thread_id, max(received_at) from received_emails where ${matching} and not (select exact from window_ranks) group by thread_id
      order by newest desc, thread_id desc offset ${q.offset} limit ${q.limit})
    select e.* from threads t ${threadMessages(db, userId, matching)}`
}

/** What the window of a search reads of each message: what searchCondition checks, and the conversation. */
const searchedColumns = (db: Db) => db`
  id, thread_id, received_at, subject, from_name, from_address, to_address, cc_addresses, bcc_addresses, has_attachments, is_read, is_starred`

/** Newest messages of the list a search first looks through, for each conversation a page needs. */
export const SEARCH_WINDOW_PER_THREAD = 40

/**
 * A search's page of conversations (issue 26). First the newest messages of the list are looked
 * through (a walk down the list index reads them, SEARCH_WINDOW_PER_THREAD for each conversation up
 * to the page's end, and the search's conditions are checked on what it read: half the time of
 * looking each one up again by its id): when their matches hold the page's conversations, the page
 * is exact (a conversation whose newest match is older than the window sorts after every one in
 * it) and its total is not counted (`more`: there may be more). A word in a tenth of the mail is
 * so answered from a few thousand messages instead of its tens of thousands. Otherwise every match
 * is read once, through the trigram index of migration 0063, for the page and its total together.
 * Undefined total without `more`: the page is past the last one.
 */
export async function searchConversationPage(db: Db, userId: string, q: ListQuery & { search: StoredSearch }, windowPerThread = SEARCH_WINDOW_PER_THREAD): Promise<{ rows: ReceivedEmailListRow[]; total?: number; more?: boolean }> {
  const matching = db`${listScope(db, userId, q)} and not deleted ${searchCondition(db, q.search)}`
  const window = (q.offset + q.limit) * windowPerThread
  const recent = await db<(ReceivedEmailListRow & { threads: number; walked: number })[]>`
    with walk as materialized (
      select ${searchedColumns(db)} from received_emails where ${listScope(db, userId, q)} and not deleted order by received_at desc, id desc limit ${window}),
    threads as materialized (
      select thread_id, max(received_at) as newest from walk where true ${searchCondition(db, q.search, true)} group by thread_id),
    page as (select thread_id from threads order by newest desc, thread_id desc offset ${q.offset} limit ${q.limit})
    select e.*, (select count(*)::int from threads) as threads, (select count(*)::int from walk) as walked from page t ${threadMessages(db, userId, matching)}`
  const threadsInWindow = recent[0]?.threads ?? 0
  // the window was the whole list: what it found is all there is
  if (recent.length > 0 && recent[0].walked < window) return { rows: recent, total: threadsInWindow }
  if (threadsInWindow >= q.offset + q.limit) return { rows: recent, more: true }
  const rows = await db<(ReceivedEmailListRow & { total: number })[]>`
    with threads as materialized (select thread_id, max(received_at) as newest from received_emails where ${matching} group by thread_id),
    page as (select thread_id from threads order by newest desc, thread_id desc offset ${q.offset} limit ${q.limit})
    select e.*, (select count(*)::int from threads) as total from page t ${threadMessages(db, userId, matching)}`
  return { rows, total: rows[0]?.total ?? (q.offset === 0 ? 0 : undefined) }
}

/**
 * How many conversations a list holds: the pager's total, in the unit of its rows. The whole list
 * of the user, an account or a folder reads its conversation_counts row (kept by triggers,
 * migration 0071); a category or a search counts its messages' conversations.
 */
export async function countConversations(db: Db, userId: string, q: Omit<ListQuery, 'limit' | 'offset'>): Promise<number> {
  if (q.category === 'inbox' && !q.search) {
    const [kept] = await db<{ total: number }[]>`
      select coalesce((select conversations from conversation_counts where scope_id = ${conversationScope(db, userId, q)}), 0) as total`
    return kept.total
  }
  const [row] = await db<{ total: number }[]>`
    select count(distinct thread_id)::int as total from received_emails where ${listScope(db, userId, { ...q, limit: 0, offset: 0 })} and not deleted ${searchCondition(db, q.search)}`
  return row.total
}

/**
 * Which messages a list holds, the owner check included. All the mail of one folder or account is
 * checked against its owner through the account (every message of an account is its user's), not
 * by the messages' user_id: given user_id = … the planner may walk the user's whole list in
 * received_emails_user_list_idx and filter, past every newer message of the user's other folders
 * (11 ms for a 100,000-message folder under 10,100 newer ones, 0.2 ms in the folder's own index).
 * Across accounts, unread and starred keep user_id = …: the user's partial indexes hold only those
 * messages; one account's have partial indexes of their own.
 */
function listScope(db: Db, userId: string, q: ListQuery) {
  if (q.category === 'inbox' && q.folderId) {
    const ofProvider = q.providerId ? db`and p.id = ${q.providerId}` : db``
    return db`folder_id = (select f.id from mailbox_folders f join email_providers p on p.id = f.provider_id
      where f.id = ${q.folderId} and p.user_id = ${userId} ${ofProvider})`
  }
  const byCategory = q.category === 'starred' ? db`and is_starred` : q.category === 'unread' ? db`and not is_read` : db``
  // one account's unread and starred read its own partial indexes (migration 0045), as its whole list does
  if (q.providerId && !q.folderId) return db`provider_id = (select id from email_providers where id = ${q.providerId} and user_id = ${userId}) ${byCategory}`
  const byProvider = q.providerId ? db`and provider_id = ${q.providerId}` : db``
  const byFolder = q.folderId ? db`and folder_id = ${q.folderId}` : db``
  return db`user_id = ${userId} ${byProvider} ${byFolder} ${byCategory}`
}

/** The conversation_counts scope of a whole list (as listScope chooses it): its folder, else its account, else the user; null when not the user's. */
function conversationScope(db: Db, userId: string, q: Pick<ListQuery, 'providerId' | 'folderId'>) {
  const ofProvider = q.providerId ? db`and p.id = ${q.providerId}` : db``
  if (q.folderId) {
    return db`(select f.id from mailbox_folders f join email_providers p on p.id = f.provider_id where f.id = ${q.folderId} and p.user_id = ${userId} ${ofProvider})`
  }
  if (q.providerId) return db`(select id from email_providers where id = ${q.providerId} and user_id = ${userId})`
  return db`${userId}::uuid`
}

export interface EmailCounts { total: number; unread: number; starred: number; bytes: number }

/** From mailbox_counts (one row per folder, kept by triggers on received_emails), not by counting the messages. */
export async function countReceivedEmails(db: Db, userId: string, providerId?: string): Promise<EmailCounts> {
  const byProvider = providerId ? db`and provider_id = ${providerId}` : db``
  const [row] = await db<EmailCounts[]>`
    select coalesce(sum(total), 0)::int as total, coalesce(sum(unread), 0)::int as unread, coalesce(sum(starred), 0)::int as starred,
      coalesce(sum(bytes), 0)::float8 as bytes
    from mailbox_counts where user_id = ${userId} ${byProvider}`
  return row
}

/** One folder's counts, its mailbox_counts row (migration 0044); undefined when the folder is not the user's. */
export async function countFolderEmails(db: Db, userId: string, folderId: string): Promise<EmailCounts | undefined> {
  const [row] = await db<EmailCounts[]>`
    select coalesce(m.total, 0) as total, coalesce(m.unread, 0) as unread, coalesce(m.starred, 0) as starred, coalesce(m.bytes, 0)::float8 as bytes
    from mailbox_folders f join email_providers p on p.id = f.provider_id left join mailbox_counts m on m.folder_id = f.id
    where f.id = ${folderId} and p.user_id = ${userId}`
  return row
}

const detailColumns = (db: Db) => db`
  ${listColumns(db)}, user_id, uid::float8 as uid, in_reply_to, reference_ids, cc_addresses, bcc_addresses, reply_to, body_text, body_html, synced_at, created_at`

export async function findReceivedEmail(db: Db, userId: string, id: string): Promise<ReceivedEmailRow | undefined> {
  const [row] = await db<ReceivedEmailRow[]>`
    select ${detailColumns(db)} from received_emails where id = ${id} and user_id = ${userId} and not deleted`
  return row
}

/** A conversation, oldest first (bounded: a runaway thread must not make the detail unbounded). */
export async function listConversation(db: Db, userId: string, threadId: string, limit = 200): Promise<ReceivedEmailListRow[]> {
  return db<ReceivedEmailListRow[]>`
    select ${listColumns(db)} from received_emails
    where user_id = ${userId} and thread_id = ${threadId} and not deleted
    order by received_at, id limit ${limit}`
}

/** The user's star/read, applied here at once and marked for write-back. */
export async function setEmailFlags(db: Db, userId: string, id: string, flags: { isRead?: boolean; isStarred?: boolean }): Promise<{ providerId: string } | undefined> {
  const [row] = await db<{ providerId: string }[]>`
    update received_emails set
      is_read = coalesce(${flags.isRead ?? null}::boolean, is_read),
      is_starred = coalesce(${flags.isStarred ?? null}::boolean, is_starred),
      flags_pending = true
    where id = ${id} and user_id = ${userId} and not deleted
    returning provider_id`
  return row
}

/**
 * A reply to (or forward of) the message was sent: \Answered (or $Forwarded) is set here and marked
 * for write-back, as the user's star and read are. Undefined when the message is gone.
 */
export async function markEmailAnswered(db: Db, userId: string, id: string, action: 'reply' | 'forward'): Promise<{ providerId: string } | undefined> {
  const [row] = await db<{ providerId: string }[]>`
    update received_emails set
      is_answered = is_answered or ${action === 'reply'}, is_forwarded = is_forwarded or ${action === 'forward'}, flags_pending = true
    where id = ${id} and user_id = ${userId} and not deleted
    returning provider_id`
  return row
}

/** Hidden at once; the row goes when the deletion has reached the server. */
export async function markEmailDeleted(db: Db, userId: string, id: string): Promise<{ providerId: string } | undefined> {
  const [row] = await db<{ providerId: string }[]>`
    update received_emails set deleted = true, deleted_at = now() where id = ${id} and user_id = ${userId} and not deleted returning provider_id`
  return row
}

/** Undo of a delete or move not yet written to the server (the row is still here): the message is back where it was. */
export async function restoreDeletedEmail(db: Db, userId: string, id: string): Promise<{ providerId: string } | undefined> {
  const [row] = await db<{ providerId: string }[]>`
    update received_emails set deleted = false, deleted_at = null, move_to = null where id = ${id} and user_id = ${userId} and deleted returning provider_id`
  return row
}

/**
 * Archive or move: hidden here at once, moved on the server to another folder of the same account
 * by the write-back once the undo window has passed. Undefined when the message or the folder is
 * not the user's, the folder is another account's, or it is the message's own.
 */
export async function markEmailMoved(db: Db, userId: string, id: string, folderId: string): Promise<{ providerId: string } | undefined> {
  const [row] = await db<{ providerId: string }[]>`
    update received_emails e set deleted = true, deleted_at = now(), move_to = f.path
    from mailbox_folders f
    where e.id = ${id} and e.user_id = ${userId} and not e.deleted and f.id = ${folderId} and f.provider_id = e.provider_id and f.id <> e.folder_id
    returning e.provider_id`
  return row
}

export interface StoredFlags { uid: number; isRead: boolean; isStarred: boolean; isAnswered: boolean; flagsPending: boolean; deleted: boolean }

/** Every stored UID of a folder with its flags, in UID order (the comparison sync without CONDSTORE). */
export async function listFolderFlags(db: Db, folderId: string): Promise<StoredFlags[]> {
  return db<StoredFlags[]>`
    select uid::float8 as uid, is_read, is_starred, is_answered, flags_pending, deleted
    from received_emails where folder_id = ${folderId} order by uid`
}

export interface ServerFlags { uid: number; isRead: boolean; isStarred: boolean; isAnswered: boolean; modseq: bigint | null }

/** Flags another client changed, unless the user changed them here and write-back is pending. */
export async function applyServerFlags(db: Db, folderId: string, changes: ServerFlags[]): Promise<number> {
  if (changes.length === 0) return 0
  // the changed rows locked in id order first (lockedInIdOrder), then written
  const rows = await db`
    with locked as materialized (
      select e.id, c.* from received_emails e
      join jsonb_to_recordset(${db.json(changes.map((c) => ({ ...c, modseq: c.modseq === null ? null : c.modseq.toString() })) as never)})
        as c(uid bigint, "isRead" boolean, "isStarred" boolean, "isAnswered" boolean, modseq bigint) on e.uid = c.uid
      where e.folder_id = ${folderId} and not e.flags_pending
        and (e.is_read, e.is_starred, e.is_answered) is distinct from (c."isRead", c."isStarred", c."isAnswered")
      order by e.id for update of e
    )
    update received_emails e set is_read = l."isRead", is_starred = l."isStarred", is_answered = l."isAnswered", modseq = l.modseq
    from locked l where e.id = l.id
    returning e.id`
  return rows.length
}

/** Messages expunged on the server (another client deleted or moved them). */
export async function deleteEmailsByUid(db: Db, folderId: string, uids: number[]): Promise<number> {
  if (uids.length === 0) return 0
  const rows = await db`
    with locked as materialized (${lockedInIdOrder(db, db`folder_id = ${folderId} and uid = any(${uids}::bigint[])`)})
    delete from received_emails e using locked where e.id = locked.id returning e.id`
  return rows.length
}

/** A new UIDVALIDITY: every stored message of the folder is dropped, to be fetched again. */
export async function deleteFolderEmails(db: Db, folderId: string): Promise<number> {
  const rows = await db`
    with locked as materialized (${lockedInIdOrder(db, db`folder_id = ${folderId}`)})
    delete from received_emails e using locked where e.id = locked.id returning e.id`
  return rows.length
}

export interface PendingChange {
  id: string; folderPath: string; uid: number; isRead: boolean; isStarred: boolean; isAnswered: boolean; isForwarded: boolean; deleted: boolean
  /** seconds of a delete's undo window still to run (0 when past, or not deleted) */
  undoLeft: number
  /** a move (Archive, Move to): the folder it goes to instead of Trash */
  moveTo: string | null
}

/** Whether the account has star, read or delete changes not yet written to its server (received_emails_pending_idx). */
export async function hasPendingChanges(db: Db, providerId: string): Promise<boolean> {
  const [{ pending }] = await db<{ pending: boolean }[]>`
    select exists (select 1 from received_emails where provider_id = ${providerId} and (flags_pending or deleted)) as pending`
  return pending
}

/** What write-back has to send to the server for one account; `undoSeconds`: how long after a delete Undo may still take it back. */
export async function listPendingChanges(db: Db, providerId: string, undoSeconds = 0): Promise<PendingChange[]> {
  return db<PendingChange[]>`
    select e.id, f.path as folder_path, e.uid::float8 as uid, e.is_read, e.is_starred, e.is_answered, e.is_forwarded, e.deleted,
      case when e.deleted and e.deleted_at is not null
        then greatest(0, extract(epoch from e.deleted_at + make_interval(secs => ${undoSeconds}) - now()))::float8 else 0 end as undo_left,
      e.move_to
    from received_emails e join mailbox_folders f on f.id = e.folder_id
    where e.provider_id = ${providerId} and (e.flags_pending or e.deleted) order by f.path, e.uid`
}

/** Written back: clears the mark unless the user changed the flags again meanwhile. */
export async function clearFlagsPending(db: Db, id: string, isRead: boolean, isStarred: boolean): Promise<void> {
  await db`update received_emails set flags_pending = false where id = ${id} and is_read = ${isRead} and is_starred = ${isStarred}`
}

export async function deleteReceivedEmail(db: Db, id: string): Promise<void> {
  await db`delete from received_emails where id = ${id}`
}

/** Whether the user holds this message (checked before its input, so another user's looks like none). */
export async function ownsReceivedEmail(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db`select 1 from received_emails where id = ${id} and user_id = ${userId} and not deleted`
  return rows.length > 0
}
