// mailbox_drafts: drafts written as a connected mailbox, kept in its \Drafts folder by the
// account's write-back job (workers/sync/save-drafts.ts). `version` counts the browser's saves,
// `saved_version` the one on the server; a discarded draft waits for its copy there to go.
import type { Db } from './client.ts'

export interface DraftRow {
  id: string
  userId: string
  providerId: string
  content: Buffer | null
  version: number
  savedVersion: number
  serverFolder: string | null
  serverUid: number | null
  discarded: boolean
  lastError: string | null
}

const columns = (db: Db) => db`id, user_id, provider_id, content, version, saved_version, server_folder, server_uid::float8 as server_uid, discarded, last_error`

/**
 * A new save of the user's draft (made, or its content replaced and its version counted; a draft
 * sent or thrown away comes back to life). Undefined when the id is another user's draft.
 * `replaces`: the copy on the server this draft was reopened from, when it has none of its own yet.
 */
export async function saveDraft(db: Db, d: { id: string; userId: string; providerId: string; content: Buffer; replaces?: { folder: string; uid: number } }): Promise<DraftRow | undefined> {
  const [row] = await db<DraftRow[]>`
    insert into mailbox_drafts as m (id, user_id, provider_id, content, server_folder, server_uid)
    values (${d.id}, ${d.userId}, ${d.providerId}, ${d.content}, ${d.replaces?.folder ?? null}, ${d.replaces?.uid ?? null})
    on conflict (id) do update set content = excluded.content, version = m.version + 1, discarded = false, updated_at = now(),
      server_folder = coalesce(m.server_folder, excluded.server_folder), server_uid = coalesce(m.server_uid, excluded.server_uid)
      where m.user_id = excluded.user_id and m.provider_id = excluded.provider_id
    returning ${columns(db)}`
  return row
}

/** Whose draft this id is, if anyone's (another user's draft id answers 404 before its body is read). */
export async function draftOwner(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db<{ userId: string }[]>`select user_id from mailbox_drafts where id = ${id}`
  return row?.userId
}

export async function findDraft(db: Db, userId: string, id: string): Promise<DraftRow | undefined> {
  const [row] = await db<DraftRow[]>`select ${columns(db)} from mailbox_drafts where id = ${id} and user_id = ${userId}`
  return row
}

/** Sent or thrown away: its content wiped; the write-back deletes its copy on the server, then the row. */
export async function discardDraft(db: Db, userId: string, id: string): Promise<{ providerId: string; version: number } | undefined> {
  const [row] = await db<{ providerId: string; version: number }[]>`
    update mailbox_drafts set discarded = true, content = null, version = version + 1, updated_at = now()
    where id = ${id} and user_id = ${userId} returning provider_id, version`
  return row
}

/** The account's drafts whose server copy is not what it should be (oldest first). */
export async function listPendingDrafts(db: Db, providerId: string): Promise<DraftRow[]> {
  return db<DraftRow[]>`
    select ${columns(db)} from mailbox_drafts where provider_id = ${providerId} and (discarded or version > saved_version)
    order by updated_at limit 50`
}

/**
 * Version `version` is in `folder` as `uid`: recorded unless a later save or discard was written
 * first. Its sealed copy here is wiped unless a later save came meanwhile (the server keeps it now).
 */
export async function markDraftSaved(db: Db, id: string, version: number, folder: string, uid: number | null): Promise<void> {
  await db`
    update mailbox_drafts set saved_version = ${version}, server_folder = ${folder}, server_uid = ${uid}, last_error = null, updated_at = now(),
      content = case when version = ${version} then null else content end
    where id = ${id} and saved_version < ${version}`
}

/** A discarded draft whose copy is gone from the server; a later save in the meantime keeps it. */
export async function deleteDiscardedDraft(db: Db, id: string, version: number): Promise<void> {
  await db`delete from mailbox_drafts where id = ${id} and discarded and version = ${version}`
}

/** The server copy is gone (deleted, or the old one replaced): forget it so the next write does not delete it again. */
export async function forgetDraftCopy(db: Db, id: string, uid: number): Promise<void> {
  await db`update mailbox_drafts set server_uid = null where id = ${id} and server_uid = ${uid}`
}
