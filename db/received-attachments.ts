// received_attachments: attachments of synced mail, sealed; downloaded one at a time.
import type { Db } from './client.ts'

export interface AttachmentMeta { id: string; emailId: string; filename: string; contentType: string; contentId: string | null; size: number }
export interface AttachmentRow extends AttachmentMeta { content: Buffer }

export interface NewAttachment extends AttachmentMeta { userId: string; content: Buffer }

/** The attachments of a fetch batch in one statement. */
export async function insertAttachments(db: Db, attachments: NewAttachment[]): Promise<void> {
  if (attachments.length === 0) return
  const rows = attachments.map((a) => ({
    id: a.id, email_id: a.emailId, user_id: a.userId, filename: a.filename, content_type: a.contentType, content_id: a.contentId, size: a.size, content: a.content,
  }))
  await db`insert into received_attachments ${db(rows, 'id', 'email_id', 'user_id', 'filename', 'content_type', 'content_id', 'size', 'content')}`
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
