// Reply, Reply all and Forward start from the newest message, with the original quoted.
import { splitAddresses } from '../../../../shared/recipient-list.ts'
import { detailDate } from './mail-dates.ts'

/** What Reply and Forward put into the compose form. */
export interface MailDraft {
  to: string
  /** a reply all's Cc, or a reopened draft's (the compose dialog shows its Cc field when there is one) */
  cc?: string
  /** a reply all: the compose dialog leaves the user's own addresses out of To and Cc */
  replyAll?: true
  subject: string
  body: string
  original?: { emailId: string; action: 'reply' | 'forward' }
  attachments?: { id: string; filename: string; size: number }[]
  /** a draft reopened from a Drafts folder: sent as that mailbox (`mailbox:<account id>`), replacing the synced copy */
  fromAlias?: string
  replacesEmailId?: string
  /** a reply: the account the original was synced from and whom it was addressed to (To and Cc), so compose can answer from that mailbox */
  receivedBy?: { providerId: string; to: string }
}

export interface QuotedEmail {
  id?: string
  fromAddress: string
  fromName: string
  toAddress: string
  subject: string
  receivedAt: string
  /** the text the reader saw: the text body, or the HTML's text */
  text: string
  /** a forward carries them */
  attachments?: { id: string; filename: string; size: number }[]
  /** the account it was synced from, and its Cc */
  providerId?: string
  ccAddresses?: string
  /** where the sender asked for replies (Reply-To), when the original named it */
  replyTo?: string
}

/** The prefix once: a subject already starting with it (any case, "Re:" or "Re :" without the space) is kept as it is. */
const prefixed = (prefix: 'Re' | 'Fwd', subject: string) => {
  const already = prefix === 'Re' ? /^\s*re\s*:/i : /^\s*(fwd?|fw)\s*:/i
  return already.test(subject) ? subject.trim() : `${prefix}: ${subject.trim()}`
}

function quote(heading: string, email: QuotedEmail): string {
  const from = email.fromName ? `${email.fromName} <${email.fromAddress}>` : email.fromAddress
  const body = email.text.replace(/\r\n/g, '\n').trimEnd().split('\n').map((line) => `> ${line}`).join('\n')
  return `\n\n-------- ${heading} --------\nFrom: ${from}\nTo: ${email.toAddress}\nSent: ${detailDate(email.receivedAt)}\nSubject: ${email.subject}\n\n${body}\n`
}

export function replyDraft(email: QuotedEmail): MailDraft {
  return {
    to: email.replyTo || email.fromAddress, subject: prefixed('Re', email.subject), body: quote('Original Message', email),
    ...(email.id ? { original: { emailId: email.id, action: 'reply' as const } } : {}),
    ...(email.providerId ? { receivedBy: { providerId: email.providerId, to: [email.toAddress, email.ccAddresses ?? ''].filter(Boolean).join(', ') } } : {}),
  }
}

/**
 * Reply all: To the original's Reply-To (else its sender) and its other To recipients, Cc its Cc,
 * threaded and quoted as Reply. Each address once (any case). The user's own addresses come out
 * in the compose dialog, which knows them (withoutOwnAddresses).
 */
export function replyAllDraft(email: QuotedEmail): MailDraft {
  const to = splitAddresses([email.replyTo || email.fromAddress, email.toAddress].join(','))
  const cc = splitAddresses(email.ccAddresses ?? '').filter((a) => !to.some((t) => t.toLowerCase() === a.toLowerCase()))
  return { ...replyDraft(email), to: to.join(', '), cc: cc.join(', '), replyAll: true }
}

/**
 * A reply all without the user's own addresses (every connected mailbox and alias, so whichever
 * From is picked, and never one of them shown to the others). A reply all to the user's own mail
 * keeps its recipients: when no To is left, the Cc becomes the To.
 */
export function withoutOwnAddresses(draft: MailDraft, own: readonly string[]): MailDraft {
  const mine = new Set(own.map((a) => a.toLowerCase()))
  const others = (field: string | undefined) => splitAddresses(field ?? '').filter((a) => !mine.has(a.toLowerCase()))
  const to = others(draft.to)
  const cc = others(draft.cc)
  return to.length > 0 ? { ...draft, to: to.join(', '), cc: cc.join(', ') } : { ...draft, to: cc.join(', '), cc: '' }
}

/** A forward: the original quoted under the usual header block, and its attachments (listed in the dialog, each removable). */
export function forwardDraft(email: QuotedEmail): MailDraft {
  return {
    to: '', subject: prefixed('Fwd', email.subject), body: quote('Forwarded Message', email),
    ...(email.id ? { original: { emailId: email.id, action: 'forward' as const } } : {}),
    attachments: (email.attachments ?? []).map(({ id, filename, size }) => ({ id, filename, size })),
  }
}

/** A draft from a Drafts folder, reopened in compose as the mailbox it was written as; its first save replaces the synced copy. */
export function editDraft(email: QuotedEmail): MailDraft {
  return { to: email.toAddress, cc: email.ccAddresses ?? '', subject: email.subject, body: email.text, fromAlias: email.providerId && `mailbox:${email.providerId}`, replacesEmailId: email.id }
}
