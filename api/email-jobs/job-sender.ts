// Who a mail from the web leaves as: one of the user's aliases (sent by the relay, DKIM-signed for
// the alias domain), or one of the user's connected mailboxes (sent through that account's own
// SMTP server, as that address). Either must be the user's own and able to send now.
import { findAlias } from '../../db/aliases.ts'
import type { Db } from '../../db/client.ts'
import { findEmailProvider } from '../../db/email-providers.ts'
import { smtpServerOf } from '../../shared/mailbox-smtp-schemas.ts'

export type JobSender =
  | { aliasId: string; providerId: null; address: string; domain: string }
  | { aliasId: null; providerId: string; address: string; domain: string }

export type SenderRefusal = { message: string; errors?: Record<string, string[]> }

const PICK = 'Please select a sender alias'

export async function findJobSender(db: Db, userId: string, from: { fromAliasId?: string; fromProviderId?: string }): Promise<JobSender | SenderRefusal> {
  if (from.fromProviderId) {
    const mailbox = await findEmailProvider(db, userId, from.fromProviderId)
    if (!mailbox) return { message: PICK, errors: { fromProviderId: [PICK] } }
    if (!smtpServerOf(mailbox)) {
      const message = `Sending as ${mailbox.email} is not set up: add its SMTP server in Inbox settings.`
      return { message, errors: { fromProviderId: [message] } }
    }
    return { aliasId: null, providerId: mailbox.id, address: mailbox.email, domain: mailbox.email.split('@').pop()!.toLowerCase() }
  }
  const alias = from.fromAliasId ? await findAlias(db, userId, from.fromAliasId) : undefined
  if (!alias) return { message: PICK, errors: { fromAliasId: [PICK] } }
  if (!alias.active || alias.forwardTo === 'null') return { message: 'This alias is paused. Resume it to send from it.' }
  return { aliasId: alias.id, providerId: null, address: `${alias.alias}@${alias.domain}`, domain: alias.domain }
}
