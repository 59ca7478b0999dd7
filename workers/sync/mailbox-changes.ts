// The mailbox-changes job: the user's star, read and delete of one account, already applied to
// our rows, written to its IMAP server. \Seen and \Flagged are set or cleared to match the row
// (RFC 3501 §6.4.6 STORE); a deleted message is moved to the Trash folder (RFC 6851 MOVE, RFC
// 6154 \Trash), or flagged \Deleted and expunged by UID (RFC 4315 UID EXPUNGE) where there is no
// Trash or it is already there. Idempotent: a retried job sets the same flags again. Every command
// is bounded in bytes and time like the sync's (imap-limits.ts), and the whole job by the sync's slice.
import type { ImapFlow } from 'imapflow'
import { getProviderForSync, markProviderError } from '../../db/email-providers.ts'
import { listFolders } from '../../db/mailbox-folders.ts'
import { clearFlagsPending, deleteReceivedEmail, listPendingChanges, type PendingChange } from '../../db/received-emails.ts'
import { log } from '../../lib/log.ts'
import { classifyImapError, closeImap } from './imap-connect.ts'
import { BUDGETS, ImapGuard } from './imap-limits.ts'
import { loginMailbox } from './mailbox-login.ts'
import { openCredentials } from '../../lib/mailbox-credentials.ts'
import { queues, type Payload, type WorkContext } from '../../db/queues.ts'
import type { SyncDeps } from './sync-mailbox.ts'
import { requestSync } from '../../db/sync-requests.ts'

export function mailboxChangesHandler(deps: SyncDeps) {
  return async ({ providerId }: Payload<typeof queues.mailboxChanges>, ctx: WorkContext): Promise<void> => {
    const { sql, config } = deps
    const provider = await getProviderForSync(sql, providerId)
    if (!provider) return
    const changes = await listPendingChanges(sql, providerId)
    if (changes.length === 0) return
    const creds = openCredentials(config, provider)
    let client: ImapFlow | undefined
    let guard: ImapGuard | undefined
    try {
      client = await loginMailbox(deps, provider)
      guard = new ImapGuard(client, { deadlineMs: config.sync.sliceMs, signal: deps.stopSignal })
      const trash = (await listFolders(sql, providerId)).find((f) => f.specialUse === '\\Trash')?.path
      const byFolder = new Map<string, PendingChange[]>()
      for (const c of changes) byFolder.set(c.folderPath, [...(byFolder.get(c.folderPath) ?? []), c])
      for (const [path, folderChanges] of byFolder) await writeFolder(deps, { client, guard }, path, folderChanges, trash)
      log.info('mailbox_changes.done', { job: ctx.jobId, provider: providerId, changes: changes.length })
      // what else changed on the server meanwhile comes in with a sync right after
      await requestSync(sql, deps.boss, providerId)
    } catch (error) {
      const failure = classifyImapError(guard?.error ?? error, creds)
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

async function writeFolder(deps: SyncDeps, { client, guard }: { client: ImapFlow; guard: ImapGuard }, path: string, changes: PendingChange[], trash: string | undefined): Promise<void> {
  const ms = deps.config.sync.commandTimeoutMs
  const store = { ...BUDGETS.store, ms }
  const lock = await guard.run('select', { ...BUDGETS.select, ms }, () => client.getMailboxLock(path))
  try {
    for (const c of changes) {
      const uid = String(c.uid)
      if (c.deleted) {
        if (trash && trash !== path) await guard.run('move', store, () => client.messageMove(uid, trash, { uid: true }))
        else await guard.run('delete', store, () => client.messageDelete(uid, { uid: true }))
        await deleteReceivedEmail(deps.sql, c.id)
        continue
      }
      const add = [...(c.isRead ? ['\\Seen'] : []), ...(c.isStarred ? ['\\Flagged'] : [])]
      const remove = [...(c.isRead ? [] : ['\\Seen']), ...(c.isStarred ? [] : ['\\Flagged'])]
      if (add.length) await guard.run('store', store, () => client.messageFlagsAdd(uid, add, { uid: true }))
      if (remove.length) await guard.run('store', store, () => client.messageFlagsRemove(uid, remove, { uid: true }))
      await clearFlagsPending(deps.sql, c.id, c.isRead, c.isStarred)
    }
  } finally {
    lock.release()
  }
}
