// received_attachments: attachments of synced mail, sealed; downloaded one at a time.
import { copyData, copyStatement, type CopyColumn } from './binary-copy.ts'
import type { Db } from './client.ts'
import { copyIn } from './copy-in.ts'

export interface AttachmentMeta { id: string; emailId: string; filename: string; contentType: string; contentId: string | null; size: number }
export interface AttachmentRow extends AttachmentMeta { content: Buffer }

export interface NewAttachment extends AttachmentMeta { userId: string; content: Buffer }

const copyColumns: CopyColumn<NewAttachment>[] = [
  { name: 'id', type: 'uuid', value: (a) => a.id }, { name: 'email_id', type: 'uuid', value: (a) => a.emailId },
  { name: 'user_id', type: 'uuid', value: (a) => a.userId }, { name: 'filename', type: 'text', value: (a) => a.filename },
  { name: 'content_type', type: 'text', value: (a) => a.contentType }, { name: 'content_id', type: 'text', value: (a) => a.contentId },
  { name: 'size', type: 'integer', value: (a) => a.size }, { name: 'content', type: 'bytea', value: (a) => a.content },
]
const COPY_ATTACHMENTS = copyStatement('received_attachments', copyColumns)

/**
 * The attachments of a fetch batch in one statement, by binary COPY as insertReceivedEmails copies
 * their messages. Their ids are new UUIDs, the table's only unique key: no row is ever skipped.
 * Nothing else may run on `db` until this resolves (see copyIn); given the pool, it runs in a
 * transaction of its own.
 */
export async function insertAttachments(db: Db, attachments: NewAttachment[]): Promise<void> {
  if (attachments.length === 0) return
  if (!('savepoint' in db)) return db.begin((tx) => insertAttachments(tx, attachments))
  await copyIn(db, COPY_ATTACHMENTS, copyData(copyColumns, attachments))
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

/** Some attachments of one message of the user's, with their sealed contents (a forward carries them); ids not of it are left out. */
export async function findAttachmentsOf(db: Db, userId: string, emailId: string, ids: readonly string[]): Promise<AttachmentRow[]> {
  if (ids.length === 0) return []
  return db<AttachmentRow[]>`
    select a.id, a.email_id, a.filename, a.content_type, a.content_id, a.size, a.content
    from received_attachments a join received_emails e on e.id = a.email_id
    where a.id = any(${ids}::uuid[]) and a.email_id = ${emailId} and a.user_id = ${userId} and not e.deleted
    order by a.filename, a.id`
}
