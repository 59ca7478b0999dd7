// An account's folder of one RFC 6154 role (\Sent, \Drafts): the one recorded by the sync, else
// the server's own (LIST, SPECIAL-USE), else one by its usual name, created (CREATE) when the
// account has none. Recorded with its role so the next use finds it at once.
import type { ImapFlow } from 'imapflow'
import type { Sql } from '../../db/client.ts'
import { listFolders, upsertFolder } from '../../db/mailbox-folders.ts'
import { BUDGETS, type ImapGuard } from '../../lib/imap-limits.ts'

export interface SpecialFolderSession {
  sql: Sql
  client: ImapFlow
  guard: ImapGuard
  /** each command's time (IMAP_TIMEOUT_SECONDS × 4) */
  commandMs: number
}

/** `sync`: the folder is synced into the inbox too (drafts are listed there). */
export async function specialFolder(s: SpecialFolderSession, providerId: string, use: '\\Sent' | '\\Drafts', name: string, sync = false): Promise<string> {
  const known = await listFolders(s.sql, providerId)
  const recorded = known.find((f) => f.specialUse === use) ?? known.find((f) => f.path.toLowerCase() === name.toLowerCase())
  if (recorded && (recorded.enabled || !sync)) return recorded.path
  let path = recorded?.path
  if (!path) {
    const listed = await s.guard.run('list', { ...BUDGETS.list, ms: s.commandMs }, () => s.client.list())
    path = (listed.find((f) => f.specialUse === use) ?? listed.find((f) => f.path.toLowerCase() === name.toLowerCase()))?.path
    if (!path) {
      path = name
      await s.guard.run('create', { ...BUDGETS.status, ms: s.commandMs }, () => s.client.mailboxCreate(name))
    }
  }
  await upsertFolder(s.sql, providerId, path, use, sync)
  return path
}
