// The mailbox-changes job: the user's star, read and delete of one account, already applied to
// our rows, written to its IMAP server, and \Answered or $Forwarded on a message once a reply or
// forward of it was sent (send-email.ts). \Seen and \Flagged are set or cleared to match the row
// (RFC 3501 §6.4.6 STORE); a deleted message is moved to the Trash folder (RFC 6851 MOVE, RFC
// 6154 \Trash; created when the account has none) once its undo window has passed, or flagged
// \Deleted and expunged by UID (RFC 4315 UID EXPUNGE) when it is already in Trash; drafts saved as
// the mailbox go to its Drafts folder (save-drafts.ts). Idempotent: a retried job sets the same flags again. Every command
// is bounded in bytes and time like the sync's (lib/imap-limits.ts), and the whole job by the sync's slice.
import type { ImapFlow } from 'imapflow'
import { getProviderForSync, markProviderError } from '../../db/email-providers.ts'
import { listFolders, upsertFolder, type MailboxFolderRow } from '../../db/mailbox-folders.ts'
import { clearFlagsPending, deleteReceivedEmail, listPendingChanges, type PendingChange } from '../../db/received-emails.ts'
import { log } from '../../lib/log.ts'
import { classifyImapError, closeImap } from '../../lib/imap-connect.ts'
import { BUDGETS, ImapGuard } from '../../lib/imap-limits.ts'
import { loginMailbox } from '../../db/mailbox-login.ts'
import { openCredentials } from '../../lib/mailbox-credentials.ts'
import { enqueue, queues, type Payload, type WorkContext } from '../../db/queues.ts'
import type { SyncDeps } from './sync-mailbox.ts'
import { requestSync } from '../../db/sync-requests.ts'
import { listPendingDrafts } from '../../db/mailbox-drafts.ts'
import { writeDrafts } from './save-drafts.ts'

export function mailboxChangesHandler(deps: SyncDeps) {
  return async ({ providerId }: Payload<typeof queues.mailboxChanges>, ctx: WorkContext): Promise<void> => {
    const { sql, config } = deps
    const provider = await getProviderForSync(sql, providerId)
    if (!provider) return
    const pending = await listPendingChanges(sql, providerId, DELETE_UNDO_SECONDS)
    const drafts = await listPendingDrafts(sql, providerId)
    if (pending.length === 0 && drafts.length === 0) return
    const folders = await listFolders(sql, providerId)
    // a delete that moves to Trash waits out its undo window (Undo takes the row back meanwhile); in Trash a delete is final
    const trashPath = trashFolder(folders)?.path
    const waiting = pending.filter((c) => c.deleted && c.undoLeft > 0 && (c.moveTo !== null || c.folderPath !== trashPath))
    // written by a later job, once this one has written the rest (a failed one's retry takes them along instead)
    const later = () => (waiting.length > 0 ? writeLater(deps, providerId, Math.max(...waiting.map((c) => c.undoLeft))) : undefined)
    const changes = pending.filter((c) => !waiting.includes(c))
    if (changes.length === 0 && drafts.length === 0) return later()
    const creds = openCredentials(config, provider)
    let client: ImapFlow | undefined
    let guard: ImapGuard | undefined
    try {
      client = await loginMailbox(deps, provider)
      guard = new ImapGuard(client, { deadlineMs: config.sync.sliceMs, signal: deps.stopSignal })
      const moving = changes.some((c) => c.deleted && c.moveTo === null && c.folderPath !== trashPath)
      const trash = trashPath ?? (moving ? await createTrash(deps, { client, guard }, providerId, folders) : undefined)
      const byFolder = new Map<string, PendingChange[]>()
      for (const c of changes) byFolder.set(c.folderPath, [...(byFolder.get(c.folderPath) ?? []), c])
      for (const [path, folderChanges] of byFolder) await writeFolder(deps, { client, guard }, path, folderChanges, trash)
      // a save made while this job runs has a job of its own (requestDraftWrite), run after this one
      if (drafts.length > 0) await writeDrafts(deps, { client, guard }, providerId, drafts)
      log.info('mailbox_changes.done', { job: ctx.jobId, provider: providerId, changes: changes.length })
      await later()
      // what else changed on the server meanwhile comes in with a sync right after
      await requestSync(sql, deps.boss, providerId)
    } catch (error) {
      const failure = classifyImapError(guard?.error ?? error, creds, { reachedBefore: provider.lastSyncAt !== null })
      log.warn('mailbox_changes.failed', { job: ctx.jobId, provider: providerId, kind: failure.kind, attempt: ctx.retryCount })
      if (failure.credentialsRefused) {
        await markProviderError(sql, providerId, failure.message, true)
        return // kept pending: written when the user fixes the account and it syncs again
      }
      throw failure // retried with backoff; a server that is back gets the changes then
    } finally {
      guard?.dispose()
      if (client) await closeImap(client)
    }
  }
}

/** How long a deleted message stays where it is, so that Undo in the toast can still take the delete back. */
export const DELETE_UNDO_SECONDS = 10

/** The account's Trash: its SPECIAL-USE \Trash folder (RFC 6154), else one named Trash (as we create it). */
function trashFolder(folders: MailboxFolderRow[]): MailboxFolderRow | undefined {
  return folders.find((f) => f.specialUse === '\\Trash') ?? folders.find((f) => f.path.toLowerCase() === 'trash')
}

/** An account with no Trash gets one (CREATE "Trash"), recorded as its \Trash, so deletes can be undone from it. */
async function createTrash(deps: SyncDeps, { client, guard }: { client: ImapFlow; guard: ImapGuard }, providerId: string, folders: MailboxFolderRow[]): Promise<string> {
  const path = 'Trash'
  if (!folders.some((f) => f.path === path)) {
    await guard.run('create', { ...BUDGETS.status, ms: deps.config.sync.commandTimeoutMs }, () => client.mailboxCreate(path))
    log.info('mailbox_changes.trash_created', { provider: providerId })
  }
  await upsertFolder(deps.sql, providerId, path, '\\Trash', false)
  return path
}

/**
 * The deletes still inside their undo window are written by a job that runs when the window ends
 * (a key per due second, so it is never refused behind a waiting job; grouped by account like every
 * write-back, so two never MOVE the same message at once and copy it twice).
 */
async function writeLater(deps: SyncDeps, providerId: string, seconds: number): Promise<void> {
  const startAfter = Math.ceil(seconds) + 1
  const due = Math.ceil(Date.now() / 1000) + startAfter
  try {
    await enqueue(deps.sql, deps.boss, queues.mailboxChanges, { providerId }, { singletonKey: `${providerId}:undo:${due}`, startAfter, group: { id: providerId } })
  } catch (error) {
    if (!(error instanceof Error && error.message.endsWith('refused the job'))) throw error
  }
}

async function writeFolder(deps: SyncDeps, { client, guard }: { client: ImapFlow; guard: ImapGuard }, path: string, changes: PendingChange[], trash: string | undefined): Promise<void> {
  const ms = deps.config.sync.commandTimeoutMs
  const store = { ...BUDGETS.store, ms }
  const lock = await guard.run('select', { ...BUDGETS.select, ms }, () => client.getMailboxLock(path))
  try {
    for (const c of changes) {
      const uid = String(c.uid)
      if (c.deleted) {
        // a move (Archive, Move to) goes to its folder, a delete to Trash; in Trash a delete is final
        const target = c.moveTo ?? trash
        if (target && target !== path) await guard.run('move', store, () => client.messageMove(uid, target, { uid: true }))
        else await guard.run('delete', store, () => client.messageDelete(uid, { uid: true }))
        await deleteReceivedEmail(deps.sql, c.id)
        continue
      }
      // \Answered and $Forwarded (RFC 5788 keyword) only ever set: a sent reply or forward is never taken back
      const add = [...(c.isRead ? ['\\Seen'] : []), ...(c.isStarred ? ['\\Flagged'] : []), ...(c.isAnswered ? ['\\Answered'] : []), ...(c.isForwarded ? ['$Forwarded'] : [])]
      const remove = [...(c.isRead ? [] : ['\\Seen']), ...(c.isStarred ? [] : ['\\Flagged'])]
      if (add.length) await guard.run('store', store, () => client.messageFlagsAdd(uid, add, { uid: true }))
      if (remove.length) await guard.run('store', store, () => client.messageFlagsRemove(uid, remove, { uid: true }))
      await clearFlagsPending(deps.sql, c.id, c.isRead, c.isStarred)
    }
  } finally {
    lock.release()
  }
}
