// mailbox_folders: the folders of each connected mailbox and their sync cursor (UIDVALIDITY,
// the highest stored UID, HIGHESTMODSEQ; RFC 3501 §2.3.1.1, RFC 7162 §3.1.2).
import type { Db } from './client.ts'

export interface MailboxFolderRow {
  id: string
  providerId: string
  path: string
  specialUse: string | null
  enabled: boolean
  uidValidity: string | null
  lastUid: number
  highestModseq: string | null
  messageCount: number
  unseenCount: number
  /** UIDNEXT and MESSAGES when the folder was last synced to the end (null: not since its cursor was reset) */
  syncedUidNext: string | null
  syncedMessages: number | null
}

const columns = (db: Db) => db`id, provider_id, path, special_use, enabled, uid_validity::text, last_uid::float8 as last_uid, highest_modseq::text, message_count, unseen_count,
  synced_uid_next::text, synced_messages`

/** Records a folder seen on the server; `enabled` only ever turns on here (INBOX by default). */
export async function upsertFolder(db: Db, providerId: string, path: string, specialUse: string | null, enabled: boolean): Promise<MailboxFolderRow> {
  const [row] = await db<MailboxFolderRow[]>`
    insert into mailbox_folders (provider_id, path, special_use, enabled) values (${providerId}, ${path}, ${specialUse}, ${enabled})
    on conflict (provider_id, path) do update set special_use = excluded.special_use, enabled = mailbox_folders.enabled or excluded.enabled
    returning ${columns(db)}`
  return row
}

export async function listFolders(db: Db, providerId: string): Promise<MailboxFolderRow[]> {
  return db<MailboxFolderRow[]>`select ${columns(db)} from mailbox_folders where provider_id = ${providerId} order by path`
}

/** The enabled folders other than INBOX of each of `providerIds` (what an IDLE watch follows besides INBOX). */
export async function enabledOtherFolders(db: Db, providerIds: string[]): Promise<Map<string, string[]>> {
  const folders = new Map<string, string[]>(providerIds.map((id) => [id, []]))
  if (providerIds.length === 0) return folders
  const rows = await db<{ providerId: string; path: string }[]>`
    select provider_id, path from mailbox_folders
    where provider_id = any(${providerIds}::uuid[]) and enabled and upper(path) <> 'INBOX' order by provider_id, path`
  for (const row of rows) folders.get(row.providerId)?.push(row.path)
  return folders
}

export interface FolderCountRow {
  id: string; providerId: string; path: string; specialUse: string | null; enabled: boolean; messageCount: number; unseenCount: number; stored: number; unread: number
}

/** Each folder of the user's accounts with the server's count and what is stored here (its mailbox_counts row). */
export async function listFolderCounts(db: Db, userId: string): Promise<FolderCountRow[]> {
  return db<FolderCountRow[]>`
    select f.id, f.provider_id, f.path, f.special_use, f.enabled, f.message_count, f.unseen_count,
      coalesce(m.total, 0) as stored, coalesce(m.unread, 0) as unread
    from mailbox_folders f join email_providers p on p.id = f.provider_id left join mailbox_counts m on m.folder_id = f.id
    where p.user_id = ${userId} order by f.provider_id, f.path`
}

/** The folder if it belongs to an account of the user. */
export async function findUserFolder(db: Db, userId: string, folderId: string): Promise<{ id: string; providerId: string } | undefined> {
  const [row] = await db<{ id: string; providerId: string }[]>`
    select f.id, f.provider_id from mailbox_folders f join email_providers p on p.id = f.provider_id where f.id = ${folderId} and p.user_id = ${userId}`
  return row
}

/** A new UIDVALIDITY (or the first sync): the cursor starts over. */
export async function resetFolderCursor(db: Db, id: string, uidValidity: bigint): Promise<void> {
  await db`update mailbox_folders set uid_validity = ${uidValidity.toString()}, last_uid = 0, highest_modseq = null, synced_uid_next = null, synced_messages = null where id = ${id}`
}

/** Stored up to `uid` (it never goes back, so a resumed sync starts above it). */
export async function advanceFolderUid(db: Db, id: string, uid: number): Promise<void> {
  await db`update mailbox_folders set last_uid = greatest(last_uid, ${uid}) where id = ${id}`
}

/**
 * The folder synced to the end as SELECT reported it: its HIGHESTMODSEQ, MESSAGES and UIDNEXT (null
 * when the server sent none usable), which a later STATUS is compared with (sync-mailbox.ts).
 */
export async function setFolderState(db: Db, id: string, highestModseq: bigint | null, messageCount: number, uidNext: number | null): Promise<void> {
  await db`
    update mailbox_folders set highest_modseq = ${highestModseq === null ? null : highestModseq.toString()}, message_count = ${messageCount},
      synced_messages = ${messageCount}, synced_uid_next = ${uidNext}
    where id = ${id}`
}

/** STATUS of a folder at the last sync (RFC 3501 §6.3.10): its messages and how many are unseen. */
export async function setFolderStatus(db: Db, id: string, messages: number, unseen: number): Promise<void> {
  await db`update mailbox_folders set message_count = ${messages}, unseen_count = ${unseen} where id = ${id}`
}

/** The user turns syncing of a folder on or off; undefined when the account has no such folder. */
export async function setFolderEnabled(db: Db, providerId: string, path: string, enabled: boolean): Promise<MailboxFolderRow | undefined> {
  const [row] = await db<MailboxFolderRow[]>`
    update mailbox_folders set enabled = ${enabled} where provider_id = ${providerId} and path = ${path} returning ${columns(db)}`
  return row
}

/** A folder no longer synced: its cursor is forgotten, so turning it on again fetches it anew. */
export async function forgetFolderCursor(db: Db, id: string): Promise<void> {
  await db`update mailbox_folders set uid_validity = null, last_uid = 0, highest_modseq = null, synced_uid_next = null, synced_messages = null where id = ${id}`
}
