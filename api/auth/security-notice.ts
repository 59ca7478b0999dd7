// Security notices: the account's owner hears by mail of every change to how it is protected
// (issue 27), through the outgoing queue like the service's other mail (DKIM-signed, From
// no-reply). Accounts without an address (wallet sign-in) get none: there is nowhere to send it.
import type { PgBoss } from 'pg-boss'
import type { Db } from '../../db/client.ts'
import type { Config } from '../../lib/config.ts'
import { queueSystemMail } from '../email-jobs/system-mail.ts'

export type SecurityEvent =
  | 'totp-enabled'
  | 'totp-disabled'
  | 'recovery-code-used'
  | 'recovery-codes-regenerated'
  | 'passkey-added'
  | 'passkey-removed'
  | 'password-changed'

const WHAT: Record<SecurityEvent, { subject: string; text: string }> = {
  'totp-enabled': { subject: 'Two-factor authentication is on', text: 'Two-factor authentication was turned on for your Veilmail account. Every sign-in now asks for a code from your authenticator app (or a recovery code), and every other session was signed out.' },
  'totp-disabled': { subject: 'Two-factor authentication is off', text: 'Two-factor authentication was turned off for your Veilmail account. Signing in no longer asks for a code.' },
  'recovery-code-used': { subject: 'A recovery code was used', text: 'A recovery code was used to sign in to your Veilmail account. That code no longer works.' },
  'recovery-codes-regenerated': { subject: 'New recovery codes', text: 'New recovery codes were made for your Veilmail account. The old ones no longer work.' },
  'passkey-added': { subject: 'A passkey was added', text: 'A passkey was added to your Veilmail account. It can now sign in to it.' },
  'password-changed': { subject: 'Your password was changed', text: 'The password of your Veilmail account was changed, and every other session was signed out.' },
  'passkey-removed': { subject: 'A passkey was removed', text: 'A passkey was removed from your Veilmail account. It can no longer sign in to it.' },
}

export async function queueSecurityNotice(
  db: Db,
  deps: { boss: PgBoss; config: Config },
  user: { id: string; email: string | null },
  event: SecurityEvent,
  detail?: string,
): Promise<void> {
  if (!user.email) return
  const { subject, text } = WHAT[event]
  await queueSystemMail(db, deps, {
    userId: user.id, to: user.email, subject: `Veilmail: ${subject}`,
    text: `${text}${detail ? `\n\n${detail}` : ''}\n\nIf this was you, there is nothing to do.\n\n` +
      `If it was not you, sign in, change your password and look at where you are signed in:\n\n${deps.config.publicUrl}/settings\n`,
  })
}
