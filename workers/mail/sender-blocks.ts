// Blocked senders at the MX (issue 30). A contact is keyed by its From address (the reverse alias
// a forward made for it), so the decision waits for the header part, in DATA: the envelope sender
// is not used (it is often a bulk sender's bounce address, different for every message). An
// alias recipient whose owner blocked the author becomes `blocked`: never stored, and counted on
// the contact (its own statement: blocked mail is rare, the accepted path pays nothing for it). When every recipient of the message is blocked and an
// owner chose to refuse (the default), the sender hears 550 5.7.1; an owner who prefers not to
// tell has the message accepted and dropped, as a paused alias's is. SMTP answers DATA once for
// all recipients, so a message that is also for an active recipient is accepted and the blocked
// ones dropped.
import type { Db as Sql } from '../../db/client.ts'
import { countBlockedMail, findSenderBlocks } from '../../db/alias-contacts.ts'
import { parseMailboxes } from '../../lib/mime-words.ts'
import type { Recipient } from './mx-recipients.ts'
import { firstValue, utf8, type HeaderField } from '../../lib/raw-message.ts'
import { SmtpReply } from './smtp-reply.ts'

export const blockedSender = () => new SmtpReply(550, '5.7.1 The recipient does not accept mail from this sender')

/**
 * The recipients with those whose owner blocked the author marked `blocked` (never stored) and the
 * blocked mail counted on each contact; throws 550 when the message is refused. No query unless
 * one of the aliases blocks someone.
 */
export async function applySenderBlocks(db: Sql, recipients: Recipient[], headers: HeaderField[]): Promise<Recipient[]> {
  const asked = recipients.flatMap((r) => (r.kind === 'alias' && r.alias.blocksSenders ? [r.alias.id] : []))
  if (asked.length === 0) return recipients
  const author = parseMailboxes(utf8(firstValue(headers, 'from') ?? ''))[0]?.address
  if (!author) return recipients
  const blocks = new Map((await findSenderBlocks(db, asked, author)).map((b) => [b.aliasId, b]))
  if (blocks.size === 0) return recipients
  const marked = recipients.map((r): Recipient => {
    const block = r.kind === 'alias' ? blocks.get(r.alias.id) : undefined
    return block && r.kind === 'alias' ? { kind: 'blocked', alias: r.alias, contactId: block.contactId, refuse: block.reply === 'refuse' } : r
  })
  await countBlockedMail(db, [...blocks.values()].map((b) => b.contactId))
  if (refusesSender(marked)) throw blockedSender()
  return marked
}

/** Every recipient is blocked (or paused) and one of the blocking owners chose to refuse. */
export function refusesSender(recipients: Recipient[]): boolean {
  return recipients.some((r) => r.kind === 'blocked' && r.refuse) && recipients.every((r) => r.kind === 'blocked' || r.kind === 'paused')
}
