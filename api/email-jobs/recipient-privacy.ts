// What a mail to several people would show each of them. Every recipient sees the whole To and
// Cc, so a mail from an alias that also goes to one of the user's real addresses (a connected
// mailbox, a forward target) would show that address beside the alias; and a mail from a mailbox
// to an alias's contacts (their reverse aliases, which our MX re-sends from the alias) together
// with anyone else would show those others the mailbox beside the alias's conversation. Both are
// refused with a sentence naming the address; a mail to one person is never refused here.
import type { Db } from '../../db/client.ts'
import { ownRealAddresses } from '../../db/own-real-addresses.ts'
import { findUserReverseAliases } from '../../db/reverse-aliases.ts'
import { domainOf } from '../../lib/mail-address.ts'
import type { JobSender, SenderRefusal } from './job-sender.ts'

export async function recipientExposure(db: Db, userId: string, sender: JobSender, to: string[], cc: string[]): Promise<SenderRefusal | undefined> {
  const recipients = [...to, ...cc]
  if (recipients.length < 2) return undefined
  const fieldOf = (address: string) => (to.includes(address) ? 'to' : 'cc')
  if (sender.aliasId) {
    const real = await ownRealAddresses(db, userId, recipients)
    const shown = recipients.find((r) => real.includes(r.toLowerCase()))
    if (!shown) return undefined
    const message = `${shown} is one of your own real addresses: every other recipient would see it beside your alias. Remove it, or send it a separate mail.`
    return { message, errors: { [fieldOf(shown)]: [message] } }
  }
  // every recipient, not only those on our mail domains: a contact of an alias on the user's own
  // domain has its reverse alias there (findUserReverseAliases looks among the user's alone)
  const localPart = (a: string) => a.slice(0, a.lastIndexOf('@')).toLowerCase()
  const reverse = await findUserReverseAliases(db, userId, recipients.map(localPart))
  const isContact = (r: string) => reverse.some((x) => x.localPart === localPart(r) && x.domain.toLowerCase() === domainOf(r))
  const contact = recipients.find(isContact)
  const other = recipients.find((r) => !isContact(r))
  if (!contact || !other) return undefined
  const message = `${contact} is a contact of one of your aliases: sent from ${sender.address} together with ${other}, the others would see your mailbox beside the alias's conversation. Send it from the mailbox to the alias's contacts alone, or to the others in a separate mail.`
  return { message, errors: { [fieldOf(other)]: [message] } }
}
