// Header rewrite for an anonymous reply (user → outside contact through a reverse alias). Only
// fields that say nothing about the user are kept (a whitelist: no Received, Sender, Reply-To,
// X-Originating-IP, signatures, client or account fields); From becomes the alias; To/Cc
// reverse aliases are mapped back to the contacts and the user's own addresses removed; the
// Message-ID is ours, and references to messages from the user's own domains are dropped.
import { domainOf } from '../lib/mail-address.ts'
import { formatMailbox, parseMailboxes, type Mailbox } from './mime-words.ts'
import { fieldValue, makeField, utf8, type HeaderField } from './raw-message.ts'

const KEPT = new Set(['subject', 'date', 'in-reply-to', 'references', 'mime-version', 'content-type',
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

function filterReferences(value: string, ownerDomains: string[]): string {
  return (value.match(/<[^<>\s]+>/g) ?? [])
    .filter((id) => !ownerDomains.some((d) => id.toLowerCase().slice(0, -1).endsWith(d)))
    .join(' ')
}

export function replyHeaders(input: ReplyHeaderInput): HeaderField[] {
  const ownerDomains = [...new Set(input.owners.map(domainOf))].filter(Boolean)
  const date = new Date(input.receivedAt).toUTCString().replace('GMT', '+0000')
  const out: HeaderField[] = [makeField('Received', `by ${input.mxHostname} with ESMTP id ${input.spoolId}; ${date}`)]
  out.push(makeField('From', input.aliasAddress))
  const to: string[] = []
  const cc: string[] = []
  for (const field of input.headers) {
    if (field.key === 'to') to.push(...mapAddresses(fieldValue(field), input))
    else if (field.key === 'cc') cc.push(...mapAddresses(fieldValue(field), input))
    else if (field.key === 'references' || field.key === 'in-reply-to') {
      const refs = filterReferences(fieldValue(field), ownerDomains)
      if (refs) out.push(makeField(field.key === 'references' ? 'References' : 'In-Reply-To', refs))
    } else if (KEPT.has(field.key)) out.push(field)
  }
  out.push(makeField('To', (to.length ? to : [formatMailbox(input.recipient.address, input.recipient.name)]).join(', ')))
  if (cc.length) out.push(makeField('Cc', cc.join(', ')))
  out.push(makeField('Message-ID', `<${input.spoolId}@${input.aliasDomain}>`))
  return out
}
