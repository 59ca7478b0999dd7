// A mail sent as a connected mailbox gets its copy in that account's Sent folder, as a mail app
// keeps one: APPEND (RFC 3501 §6.3.11) to its SPECIAL-USE \Sent folder (RFC 6154), or one named
// Sent, created when the account has neither. Gmail files what its SMTP server sends in Sent Mail
// itself, so a Gmail account gets no second copy. Every command is bounded in bytes and time like
// the sync's (lib/imap-limits.ts).
import type { ImapFlow } from 'imapflow'
import type { ProviderForSync } from '../../db/email-providers.ts'
import { listFolders, upsertFolder } from '../../db/mailbox-folders.ts'
import { loginMailbox, type LoginDeps } from '../../db/mailbox-login.ts'
import { closeImap } from '../../lib/imap-connect.ts'
import { BUDGETS, ImapGuard } from '../../lib/imap-limits.ts'

/** Whether the account's own server already keeps a copy of what it sends. */
export const serverKeepsSentCopy = (provider: Pick<ProviderForSync, 'provider'>) => provider.provider === 'gmail'

/** The path the copy went to. */
export async function appendSentCopy(deps: LoginDeps, provider: ProviderForSync, raw: Buffer): Promise<string> {
  const ms = deps.config.sync.commandTimeoutMs
  const client = await loginMailbox(deps, provider)
  const guard = new ImapGuard(client, { deadlineMs: ms * 2, signal: deps.stopSignal })
  try {
    const path = await sentFolder(deps, { client, guard }, provider.id)
    // the server answers an APPEND with one tagged line (APPENDUID): far below this
    await guard.run('append', { bytes: 64 * 1024, ms }, () => client.append(path, raw, ['\\Seen']))
    return path
  } finally {
    guard.dispose()
    await closeImap(client)
  }
}

async function sentFolder(deps: LoginDeps, { client, guard }: { client: ImapFlow; guard: ImapGuard }, providerId: string): Promise<string> {
  const ms = deps.config.sync.commandTimeoutMs
  const known = await listFolders(deps.sql, providerId)
  const recorded = known.find((f) => f.specialUse === '\\Sent') ?? known.find((f) => f.path.toLowerCase() === 'sent')
  if (recorded) return recorded.path
  // not synced yet: ask the server (LIST with SPECIAL-USE, RFC 6154)
  const listed = await guard.run('list', { ...BUDGETS.list, ms }, () => client.list())
  const found = listed.find((f) => f.specialUse === '\\Sent') ?? listed.find((f) => f.path.toLowerCase() === 'sent')
  const path = found?.path ?? 'Sent'
  if (!found) await guard.run('create', { ...BUDGETS.status, ms }, () => client.mailboxCreate(path))
  await upsertFolder(deps.sql, providerId, path, '\\Sent', false)
  return path
}
