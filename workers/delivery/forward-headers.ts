// Header rewrite for a forwarded message; the body is never touched. The user sees who wrote
// (From: "Name <sender> via Veilmail" <reverse alias>), replies go back through reverse aliases
// (Reply-To, and To/Cc outside addresses), our trace and authentication results come first
// (RFC 5321 §4.4, RFC 8601), and upstream signatures and results that no longer apply go.
import { SPAM_FIELDS, spamFields, taggedSubject } from './spam-fields.ts'
import { LOOP_HEADER } from '../mail/loop-token.ts'
import { formatMailbox, parseMailboxes, type Mailbox } from '../../lib/mime-words.ts'
import { fieldValue, makeField, splitMessage, utf8, type HeaderField } from '../../lib/raw-message.ts'
import type { SpoolMeta } from '../mail/spool-codec.ts'
import { LINK_FIELDS, linkFields, type ForwardLinks } from './forward-links.ts'

/**
 * Upstream fields we drop: stale signatures and results, and envelope fields a final delivery adds.
 * ARC sets stay: ours is added after them, its seal signing them when they validated (RFC 8617).
 */
const DROPPED = new Set(['dkim-signature', 'authentication-results', 'received-spf', 'return-path', 'delivered-to', 'x-original-to', 'sender',
  ...LINK_FIELDS, ...SPAM_FIELDS])

export interface ForwardHeaderInput {
  headers: HeaderField[]
  spoolId: string
  meta: SpoolMeta
  mxHostname: string
  aliasDomain: string
  mailDomains: string[]
  loopToken: string
  /** the author, and the reverse alias standing for them ('' when the message had no usable From) */
  from: { mailbox?: Mailbox; reverse: string }
  /** reverse aliases for the Reply-To addresses (or for From when there was none) */
  replyTo: string[]
  /** outside To/Cc addresses (lower-cased) → their reverse alias */
  contacts: Map<string, string>
  /** the signed links of the forward (forward-links.ts); none on a message without them */
  links?: ForwardLinks
  /** the alias's spam handling is 'tag-subject': spam's Subject starts with [SPAM] (spam-fields.ts) */
  tagSpamSubject?: boolean
}

export function receivedField(meta: SpoolMeta, mxHostname: string, id: string): HeaderField {
  const helo = meta.helo.replace(/[^\w.:[\]-]/g, '').slice(0, 100) || 'unknown'
  const date = new Date(meta.receivedAt).toUTCString().replace('GMT', '+0000')
  return makeField('Received', `from ${helo} ([${meta.remoteAddress}]) by ${mxHostname} with ${meta.secure ? 'ESMTPS' : 'ESMTP'} id ${id}; ${date}`)
}

function rewriteAddressField(field: HeaderField, input: ForwardHeaderInput): HeaderField {
  const mailboxes = parseMailboxes(utf8(fieldValue(field)))
  if (!mailboxes.some((m) => input.contacts.has(m.address.toLowerCase()))) return field
  const name = field.line.slice(0, field.line.indexOf(':')).trim()
  const value = mailboxes.map((m) => {
    const reverse = input.contacts.get(m.address.toLowerCase())
    return reverse ? formatMailbox(reverse, m.name ? `${m.name} <${m.address}>` : m.address) : formatMailbox(m.address, m.name)
  }).join(', ')
  return makeField(name, value)
}

export function forwardHeaders(input: ForwardHeaderInput): HeaderField[] {
  const out: HeaderField[] = [receivedField(input.meta, input.mxHostname, input.spoolId)]
  out.push(...splitMessage(Buffer.from(input.meta.auth.headers + '\r\n', 'latin1')).headers)
  out.push(makeField(LOOP_HEADER, input.loopToken))
  if (input.meta.spam) out.push(...spamFields(input.meta.spam))
  const tagSubject = input.tagSpamSubject === true && input.meta.spam?.spam === true
  let sawSubject = false
  let sawFrom = false
  let sawReplyTo = false
  let sawMessageId = false
  const author = input.from.mailbox
  const fromLine = () => makeField('From', formatMailbox(input.from.reverse, `${author?.name ? author.name + ' ' : ''}<${author?.address ?? 'unknown sender'}> via Veilmail`))
  for (const field of input.headers) {
    if (DROPPED.has(field.key)) continue
    if (field.key === 'from') {
      if (!sawFrom) out.push(fromLine())
      sawFrom = true
    } else if (field.key === 'reply-to') {
      if (!sawReplyTo && input.replyTo.length) out.push(makeField('Reply-To', input.replyTo.join(', ')))
      sawReplyTo = true
    } else if (field.key === 'to' || field.key === 'cc') {
      out.push(rewriteAddressField(field, input))
    } else if (field.key === 'subject' && tagSubject) {
      if (!sawSubject) out.push(taggedSubject(field))
      sawSubject = true
    } else {
      if (field.key === 'message-id') sawMessageId = true
      out.push(field)
    }
  }
  if (tagSubject && !sawSubject) out.push(taggedSubject(undefined))
  if (!sawFrom) out.push(fromLine())
  if (!sawReplyTo && input.replyTo.length) out.push(makeField('Reply-To', input.replyTo.join(', ')))
  // RFC 5322 §3.6.4: a message should have one; ours is stable across retries.
  if (!sawMessageId) out.push(makeField('Message-ID', `<${input.spoolId}@${input.aliasDomain}>`))
  if (input.links) out.push(...linkFields(input.links))
  return out
}
