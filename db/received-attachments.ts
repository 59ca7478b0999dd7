// received_attachments: attachments of synced mail, sealed; downloaded one at a time.
import type { Db } from './client.ts'

export interface AttachmentMeta { id: string; emailId: string; filename: string; contentType: string; contentId: string | null; size: number }
export interface AttachmentRow extends AttachmentMeta { content: Buffer }

export interface NewAttachment extends AttachmentMeta { userId: string; content: Buffer }

/** The attachments of a fetch batch in one statement; contents as base64, decoded by Postgres (see insertReceivedEmails). */
export async function insertAttachments(db: Db, attachments: NewAttachment[]): Promise<void> {
  if (attachments.length === 0) return
  const rows = attachments.map((a, i) => db`${i ? db`,` : db``}(${a.id}, ${a.emailId}, ${a.userId}, ${a.filename}, ${a.contentType}, ${a.contentId},
    ${a.size}, decode(${a.content.toString('base64')}, 'base64'))`)
  await db`insert into received_attachments (id, email_id, user_id, filename, content_type, content_id, size, content) values ${rows}`
}

export async function listAttachments(db: Db, emailId: string): Promise<AttachmentMeta[]> {
  return db<AttachmentMeta[]>`
    select id, email_id, filename, content_type, content_id, size from received_attachments where email_id = ${emailId} order by filename, id`
}

export async function findAttachment(db: Db, userId: string, emailId: string, id: string): Promise<AttachmentRow | undefined> {
  const [row] = await db<AttachmentRow[]>`
    select a.id, a.email_id, a.filename, a.content_type, a.content_id, a.size, a.content
    from received_attachments a join received_emails e on e.id = a.email_id
    where a.id = ${id} and a.email_id = ${emailId} and a.user_id = ${userId} and not e.deleted`
  return row
}
