// The MIME message of a mail written on the compose page: From the alias, To and Cc, a Message-ID on its
// domain, a text body, and, when the sender shares their age public key, a labelled block after
// the body, an X-Age-Recipient header and an application/x-age-public-key attachment (README);
// a reply's In-Reply-To and References, and a forward's attachments.
// Built once, when the mail is queued, so every attempt sends the same bytes.
import MailComposer from 'nodemailer/lib/mail-composer/index.js'

export interface ComposedMail {
  from: string
  /** one address, or several (a reply all) */
  to: string | string[]
  cc?: string[]
  subject: string
  body: string
  sharedPublicKey?: string
  messageId: string
  date: Date
  /** a reply's threading fields (reply-threading.ts) */
  inReplyTo?: string
  references?: string[]
  /** files carried along, as a forward carries the original's */
  attachments?: { filename: string; contentType: string; content: Buffer }[]
}

export function composeMessage(mail: ComposedMail): Promise<Buffer> {
  const key = mail.sharedPublicKey
  const text = key ? `${mail.body}\n\n-- \nMy age public key (encrypt your reply to it with age):\n${key}\n` : mail.body
  const attachments = [
    ...(mail.attachments ?? []).map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
    ...(key ? [{ filename: 'age-public-key.txt', content: key + '\n', contentType: 'application/x-age-public-key' }] : []),
  ]
  const composer = new MailComposer({
    from: mail.from, to: mail.to, cc: mail.cc?.length ? mail.cc : undefined, subject: mail.subject, text, messageId: mail.messageId, date: mail.date,
    headers: key ? { 'X-Age-Recipient': key } : undefined,
    inReplyTo: mail.inReplyTo, references: mail.references?.length ? mail.references : undefined,
    attachments: attachments.length ? attachments : undefined,
  })
  return composer.compile().build()
}
