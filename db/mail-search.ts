// The inbox search's conditions on received_emails (issue 26): what a list of db/received-emails.ts
// adds to its rows when the user searches. Words, from:, to: and subject: are ILIKE substrings of
// the readable columns, each first checked against the whole searchable text, the expression of
// the trigram index of migration 0063, so the index finds the candidates; the body words' matches
// come from the user's IMAP servers as row ids (api/emails/mail-body-search.ts).
import type { MailSearch } from '../shared/mail-search-query.ts'
import type { Db } from './client.ts'

export interface StoredSearch {
  search: MailSearch
  /** rows whose message holds every word on its IMAP server (UID SEARCH TEXT): they match the words too */
  bodyIds: string[]
}

/** A term as an ILIKE pattern matching it anywhere: its own %, _ and \ are escaped (backslash is LIKE's escape). */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`

/** Exactly the expression of migration 0063's trigram index (and of 0071's, over the messages with attachments): any other spelling is a different expression to the planner. */
const searchable = (db: Db) => db`(subject || ' ' || from_name || ' ' || from_address || ' ' || to_address || ' ' || cc_addresses || ' ' || bcc_addresses)`

const utcDay = (day: string) => `${day}T00:00:00Z`

/**
 * The search's conditions, each starting with `and` (empty when there is no search). `onRows`: the
 * rows are already chosen (the newest of a list): the conditions are checked on them alone, in a
 * form the trigram index cannot serve, so the planner does not read every match through it.
 */
export function searchCondition(db: Db, stored: StoredSearch | undefined, onRows = false) {
  if (!stored) return db``
  const { search: s, bodyIds } = stored
  const text = onRows ? db`(${searchable(db)} || '')` : searchable(db)
  const parts = []
  if (s.words.length) {
    const inHeaders = s.words.map((w, i) => db`${i ? db`and` : db``} ${text} ilike ${likePattern(w)}`)
    parts.push(bodyIds.length ? db`and ((${inHeaders}) or id = any(${bodyIds}::uuid[]))` : db`and (${inHeaders})`)
  }
  for (const f of s.from) parts.push(db`and ${text} ilike ${likePattern(f)} and (from_address ilike ${likePattern(f)} or from_name ilike ${likePattern(f)})`)
  for (const t of s.to) {
    parts.push(db`and ${text} ilike ${likePattern(t)} and (to_address ilike ${likePattern(t)} or cc_addresses ilike ${likePattern(t)} or bcc_addresses ilike ${likePattern(t)})`)
  }
  for (const subject of s.subject) parts.push(db`and ${text} ilike ${likePattern(subject)} and subject ilike ${likePattern(subject)}`)
  if (s.hasAttachment) parts.push(db`and has_attachments`)
  if (s.unread !== undefined) parts.push(s.unread ? db`and not is_read` : db`and is_read`)
  if (s.starred) parts.push(db`and is_starred`)
  if (s.before) parts.push(db`and received_at < ${utcDay(s.before)}::timestamptz`)
  if (s.after) parts.push(db`and received_at >= ${utcDay(s.after)}::timestamptz`)
  return parts.reduce((all, part) => db`${all} ${part}`, db``)
}

/** Which of the user's stored messages of one folder have these UIDs (what its IMAP server found). */
export async function idsOfFolderUids(db: Db, userId: string, folderId: string, uids: number[]): Promise<string[]> {
  if (uids.length === 0) return []
  const rows = await db<{ id: string }[]>`
    select id from received_emails where folder_id = ${folderId} and uid = any(${uids}::bigint[]) and user_id = ${userId} and not deleted`
  return rows.map((r) => r.id)
}

/** `uidValidity`: the folder's as stored; UIDs of another UIDVALIDITY name other messages (RFC 3501 §2.3.1.1). */
export interface SearchFolder { providerId: string; email: string; folderId: string; path: string; uidValidity: string }

/** The folders a body search asks about: every enabled folder of the user's active accounts, by account. */
export async function listSearchFolders(db: Db, userId: string): Promise<SearchFolder[]> {
  return db<SearchFolder[]>`
    select p.id as provider_id, p.email, f.id as folder_id, f.path, f.uid_validity::text
    from email_providers p join mailbox_folders f on f.provider_id = p.id
    where p.user_id = ${userId} and p.is_active and not p.auth_failed and f.enabled and f.uid_validity is not null
    order by p.created_at, p.id, f.path`
}
