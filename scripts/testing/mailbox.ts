// The service's own mail as a test reads it: the outgoing queue's row (sealed at rest) while it
// waits, or what the relay stand-in received once it was sent. Tests follow the real link a mail
// carries instead of making tokens of their own.
import { simpleParser } from 'mailparser'
import type { Sql } from '../../db/client.ts'
import { openEmailJobContent } from '../../lib/email-job-content.ts'
import type { Relay } from './mail-stand-ins.ts'

export interface Mailbox {
  sql: Sql
  secretKey: string
  /** the relay stand-in, when a delivery worker sends the queue's mail */
  relay?: () => Relay
}

const mailboxes = new WeakMap<object, Mailbox>()

/** Lets ApiClient read the mail this app queues (ApiClient.register follows the verification link). */
export function attachMailbox<T extends object>(app: T, mailbox: Mailbox): T {
  mailboxes.set(app, mailbox)
  return app
}

export const mailboxOf = (app: object) => mailboxes.get(app)

export interface ReadMail { subject: string; text: string; raw: Buffer }

/** Every system mail to `to`, oldest first. */
export async function systemMailsTo(mailbox: Mailbox, to: string): Promise<ReadMail[]> {
  const rows = await mailbox.sql<{ id: string; content: Buffer | null; messageId: string | null }[]>`
    select id, content, message_id from email_jobs where source = 'system' and lower(recipient_email) = lower(${to}) order by created_at, id`
  const relayed = mailbox.relay?.().messages.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase())) ?? []
  const mails: ReadMail[] = []
  for (const row of rows) {
    let raw: Buffer | undefined
    if (row.content) {
      const content = openEmailJobContent(mailbox.secretKey, row.id, row.content)
      if (content.kind === 'raw') raw = Buffer.from(content.raw, 'base64')
    } else {
      raw = relayed.find((m) => m.raw.includes(`<${row.id}@`))?.raw // sent: its Message-ID names the job
    }
    if (!raw) continue
    const parsed = await simpleParser(raw)
    mails.push({ subject: parsed.subject ?? '', text: parsed.text ?? '', raw })
  }
  return mails
}

/** The link to `page` in the newest system mail to `to` that carries one. */
export async function latestLink(mailbox: Mailbox, to: string, page: string): Promise<string> {
  const mails = await systemMailsTo(mailbox, to)
  const pattern = new RegExp(`https?://\\S+${page}\\?token=[A-Za-z0-9_-]+`)
  for (const mail of mails.reverse()) {
    const link = pattern.exec(mail.text)?.[0]
    if (link) return link
  }
  throw new Error(`no mail with a ${page} link to that address`)
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!
