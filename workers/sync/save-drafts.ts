// Drafts written as a connected mailbox, kept in its \Drafts folder (RFC 6154; "Drafts" created
// when the account has none, and synced so the inbox lists it). Part of the account's write-back
// job (mailbox-changes.ts), on its connection. A save APPENDs the new copy flagged \Draft
// (RFC 3501 §6.3.11; its UID from APPENDUID, RFC 4315), records it, then deletes the copy it
// replaces by UID (UID EXPUNGE, RFC 4315); a draft sent or thrown away has its copy deleted, then
// its row. A retried job finds the saves already recorded and writes only what is left.
import type { ImapFlow } from 'imapflow'
import { deleteDiscardedDraft, forgetDraftCopy, markDraftSaved, type DraftRow } from '../../db/mailbox-drafts.ts'
import { log } from '../../lib/log.ts'
import { BUDGETS, type ImapGuard } from '../../lib/imap-limits.ts'
import { openDraftMessage } from '../../lib/mailbox-draft-content.ts'
import type { SyncDeps } from './sync-mailbox.ts'
import { specialFolder } from './special-folder.ts'

type Session = { client: ImapFlow; guard: ImapGuard }

export async function writeDrafts(deps: SyncDeps, session: Session, providerId: string, drafts: DraftRow[]): Promise<void> {
  const { sql, config } = deps
  const { client, guard } = session
  const commandMs = config.sync.commandTimeoutMs
  let path: string | undefined
  for (const draft of drafts) {
    if (draft.discarded) {
      if (draft.serverFolder && draft.serverUid !== null) await deleteCopy(deps, session, draft.id, draft.serverFolder, draft.serverUid)
      await deleteDiscardedDraft(sql, draft.id, draft.version)
      continue
    }
    if (!draft.content) continue
    path ??= await specialFolder({ sql, client, guard, commandMs }, providerId, '\\Drafts', 'Drafts', true)
    const raw = openDraftMessage(config, draft.id, draft.content)
    const folder = path
    // the copy it replaces goes first (a server without UIDPLUS gave no UID for it: that copy
    // cannot be found again): once the new copy is recorded, the old one's UID is no longer known,
    // so a delete failing after it would leave the old copy in the folder for good. A failure here
    // or in the APPEND is retried; the text stays sealed in the row until a copy is recorded.
    if (draft.serverFolder && draft.serverUid !== null) await deleteCopy(deps, session, draft.id, draft.serverFolder, draft.serverUid)
    // the server answers an APPEND with one tagged line (APPENDUID): far below this
    const appended = await guard.run('append', { bytes: 64 * 1024, ms: commandMs }, () => client.append(folder, raw, ['\\Draft', '\\Seen']))
    const uid = appended && typeof appended === 'object' && appended.uid ? appended.uid : null
    await markDraftSaved(sql, draft.id, draft.version, folder, uid)
  }
  log.info('drafts.written', { provider: providerId, drafts: drafts.length })
}

async function deleteCopy(deps: SyncDeps, { client, guard }: Session, draftId: string, folder: string, uid: number): Promise<void> {
  const ms = deps.config.sync.commandTimeoutMs
  const lock = await guard.run('select', { ...BUDGETS.select, ms }, () => client.getMailboxLock(folder))
  try {
    await guard.run('delete', { ...BUDGETS.store, ms }, () => client.messageDelete(String(uid), { uid: true }))
  } finally {
    lock.release()
  }
  await forgetDraftCopy(deps.sql, draftId, uid)
}
