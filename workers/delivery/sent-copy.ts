// A mail sent as a connected mailbox gets its copy in that account's Sent folder, as a mail app
// keeps one: APPEND (RFC 3501 §6.3.11) to its SPECIAL-USE \Sent folder (RFC 6154), or one named
// Sent, created when the account has neither. Gmail files what its SMTP server sends in Sent Mail
// itself, so a Gmail account gets no second copy. Every command is bounded in bytes and time like
// the sync's (lib/imap-limits.ts).
import type { ProviderForSync } from '../../db/email-providers.ts'
import { loginMailbox, type LoginDeps } from '../../db/mailbox-login.ts'
import { closeImap } from '../../lib/imap-connect.ts'
import { ImapGuard } from '../../lib/imap-limits.ts'
import { specialFolder } from '../sync/special-folder.ts'

/** Whether the account's own server already keeps a copy of what it sends. */
export const serverKeepsSentCopy = (provider: Pick<ProviderForSync, 'provider'>) => provider.provider === 'gmail'

/** The path the copy went to. */
export async function appendSentCopy(deps: LoginDeps, provider: ProviderForSync, raw: Buffer): Promise<string> {
  const ms = deps.config.sync.commandTimeoutMs
  const client = await loginMailbox(deps, provider)
  const guard = new ImapGuard(client, { deadlineMs: ms * 2, signal: deps.stopSignal })
  try {
    const path = await specialFolder({ sql: deps.sql, client, guard, commandMs: ms }, provider.id, '\\Sent', 'Sent')
    // the server answers an APPEND with one tagged line (APPENDUID): far below this
    await guard.run('append', { bytes: 64 * 1024, ms }, () => client.append(path, raw, ['\\Seen']))
    return path
  } finally {
    guard.dispose()
    await closeImap(client)
  }
}
