// Who compose can send as: the user's connected mailboxes whose SMTP server is set up (sent as
// that address, through its own server), listed first, then the aliases that can send. One select
// holds both: a mailbox's option value is `mailbox:<account id>`, an alias's its id.
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import type { SenderAlias } from './compose-form.ts'

const MAILBOX = 'mailbox:'

/** The accounts that can send as themselves, as From options. */
export function senderMailboxes(providers: readonly EmailProviderView[] | undefined): SenderAlias[] {
  return (providers ?? []).filter((p) => p.smtp !== null).map((p) => ({ id: `${MAILBOX}${p.id}`, address: p.email, mailbox: true }))
}

/** The From options in the picker's order: mailboxes first, then aliases. */
export const senderChoices = (mailboxes: readonly SenderAlias[], aliases: readonly SenderAlias[]): SenderAlias[] => [...mailboxes, ...aliases]

/** The select's value as the request's fields: `fromProviderId` for a mailbox, else `fromAliasId`. */
export function fromFields(value: string): { fromAliasId?: string; fromProviderId?: string } {
  return value.startsWith(MAILBOX) ? { fromProviderId: value.slice(MAILBOX.length) } : { fromAliasId: value }
}

/**
 * A reply to mail that came to one of the user's mailboxes (its address in the original's To or
 * Cc) starts from that mailbox, as mail apps do. Mail that reached the mailbox through an alias
 * (forwarded: the alias in To) does not: answering from the real address would give it away.
 */
export function replySender(mailboxes: readonly SenderAlias[], receivedBy: { providerId: string; to: string } | undefined): string | undefined {
  if (!receivedBy) return undefined
  const mailbox = mailboxes.find((m) => m.id === `${MAILBOX}${receivedBy.providerId}`)
  if (!mailbox) return undefined
  const addressed: string[] = receivedBy.to.toLowerCase().match(/[^\s<>,;"]+@[^\s<>,;"]+/g) ?? []
  return addressed.includes(mailbox.address.toLowerCase()) ? mailbox.id : undefined
}
