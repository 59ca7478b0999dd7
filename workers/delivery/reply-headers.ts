// Header rewrite for an anonymous reply (user → outside contact through a reverse alias). Only
// fields that say nothing about the user are kept (a whitelist: no Received, Sender, Reply-To,
// X-Originating-IP, signatures, client or account fields); From becomes the alias; To/Cc
// reverse aliases are mapped back to the contacts and the user's own addresses removed; the
// Message-ID is ours; the Date is the same instant in UTC (the zone tells where the user is);
// References and In-Reply-To keep only ids on the alias's threads: those forwarded to it
// (thread_message_ids) and those Veilmail makes itself (<uuid@mail domain>).
import { domainOf } from '../../lib/mail-address.ts'
import { formatMailbox, parseMailboxes, type Mailbox } from '../../lib/mime-words.ts'
import { fieldValue, makeField, messageIds, utf8, type HeaderField } from '../../lib/raw-message.ts'

const KEPT = new Set(['subject', 'in-reply-to', 'references', 'mime-version', 'content-type',
  'content-transfer-encoding', 'content-language', 'importance', 'priority', 'x-priority', 'auto-submitted', 'thread-topic'])

export interface ReplyHeaderInput {
  headers: HeaderField[]
  spoolId: string
  aliasAddress: string
  aliasDomain: string
  mxHostname: string
  receivedAt: string
  /** the user's own mailboxes, lower-cased: removed wherever they appear */
  owners: string[]
  /** the user's reverse aliases named in the message (lower-cased address) → their contact */
  contacts: Map<string, Mailbox>
  /** the contact this copy goes to */
  recipient: Mailbox
  /** referenced Message-IDs known to be on the alias's threads */
  threadIds: Set<string>
  mailDomains: string[]
}

function mapAddresses(value: string, input: ReplyHeaderInput): string[] {
  const out: string[] = []
  for (const m of parseMailboxes(utf8(value))) {
    const key = m.address.toLowerCase()
    const contact = input.contacts.get(key)
    if (contact) out.push(formatMailbox(contact.address, contact.name))
    else if (!input.owners.includes(key)) out.push(formatMailbox(m.address, m.name))
  }
  return out
}

const OUR_ID = /^<[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@([^<>@]+)>$/

function filterReferences(value: string, ownerDomains: string[], input: ReplyHeaderInput): string {
  const ours = (id: string) => input.mailDomains.includes(OUR_ID.exec(id.toLowerCase())?.[1] ?? '')
  return messageIds(value)
    .filter((id) => input.threadIds.has(id) || ours(id))
    .filter((id) => !ownerDomains.some((d) => id.toLowerCase().slice(0, -1).endsWith(d)))
    .join(' ')
}

/** RFC 5322 §3.3 date-time in UTC: the same instant, without the sender's zone. */
const utcDate = (date: Date) => date.toUTCString().replace('GMT', '+0000')

export function replyHeaders(input: ReplyHeaderInput): HeaderField[] {
  const ownerDomains = [...new Set(input.owners.map(domainOf))].filter(Boolean)
  const received = new Date(input.receivedAt)
  const out: HeaderField[] = [makeField('Received', `by ${input.mxHostname} with ESMTP id ${input.spoolId}; ${utcDate(received)}`)]
  out.push(makeField('From', input.aliasAddress))
  const to: string[] = []
  const cc: string[] = []
  let sawDate = false
  for (const field of input.headers) {
    if (field.key === 'to') to.push(...mapAddresses(fieldValue(field), input))
    else if (field.key === 'cc') cc.push(...mapAddresses(fieldValue(field), input))
    else if (field.key === 'references' || field.key === 'in-reply-to') {
      const refs = filterReferences(fieldValue(field), ownerDomains, input)
      if (refs) out.push(makeField(field.key === 'references' ? 'References' : 'In-Reply-To', refs))
    } else if (field.key === 'date') {
      if (!sawDate) {
        const date = new Date(fieldValue(field).replace(/\([^()]*\)/g, ' '))
        out.push(makeField('Date', utcDate(Number.isNaN(date.getTime()) ? received : date)))
      }
      sawDate = true
    } else if (KEPT.has(field.key)) out.push(field)
  }
  if (!sawDate) out.push(makeField('Date', utcDate(received)))
  out.push(makeField('To', (to.length ? to : [formatMailbox(input.recipient.address, input.recipient.name)]).join(', ')))
  if (cc.length) out.push(makeField('Cc', cc.join(', ')))
  out.push(makeField('Message-ID', `<${input.spoolId}@${input.aliasDomain}>`))
  return out
}
