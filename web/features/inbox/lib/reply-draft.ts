// Reply and Forward start from the newest message, with the original quoted.
import { detailDate } from './mail-dates.ts'

/** What Reply and Forward put into the compose form. */
export interface MailDraft {
  to: string
  subject: string
  body: string
}

export interface QuotedEmail {
  fromAddress: string
  fromName: string
  toAddress: string
  subject: string
  receivedAt: string
  /** the text the reader saw: the text body, or the HTML's text */
  text: string
}

const prefixed = (prefix: string, subject: string) => (subject.toLowerCase().startsWith(prefix.toLowerCase()) ? subject : `${prefix}${subject}`)

function quote(heading: string, email: QuotedEmail): string {
  const from = email.fromName ? `${email.fromName} <${email.fromAddress}>` : email.fromAddress
  const body = email.text.replace(/\r\n/g, '\n').trimEnd().split('\n').map((line) => `> ${line}`).join('\n')
  return `\n\n-------- ${heading} --------\nFrom: ${from}\nTo: ${email.toAddress}\nSent: ${detailDate(email.receivedAt)}\nSubject: ${email.subject}\n\n${body}\n`
}

export function replyDraft(email: QuotedEmail): MailDraft {
  return { to: email.fromAddress, subject: prefixed('Re: ', email.subject), body: quote('Original Message', email) }
}

export function forwardDraft(email: QuotedEmail): MailDraft {
  return { to: '', subject: prefixed('Fwd: ', email.subject), body: quote('Forwarded Message', email) }
}
