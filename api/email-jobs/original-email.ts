// What a reply or forward written in the inbox takes from the message it answers (issue 26 items
// 2 and 3): a reply its In-Reply-To and References (RFC 5322 §3.6.4); a forward the attachments
// the user kept, opened from their sealed copies. Only the user's own synced messages and their
// own attachments: any other id is not found.
import type { Sql } from '../../db/client.ts'
import { findAttachmentsOf } from '../../db/received-attachments.ts'
import { findReceivedEmail } from '../../db/received-emails.ts'
import type { Config } from '../../lib/config.ts'
import { replyThreading, type ReplyThreading } from '../../lib/reply-threading.ts'
import { receivedMailBox } from '../../lib/received-mail-box.ts'
import type { CreateEmailJobInput } from '../../shared/email-job-schemas.ts'

export interface OriginalParts {
  threading?: ReplyThreading
  attachments: { filename: string; contentType: string; content: Buffer }[]
}

export type OriginalResult = { found: true; parts: OriginalParts } | { found: false } | { tooLarge: true }

export async function originalParts(sql: Sql, config: Pick<Config, 'secretKey' | 'maxMessageBytes'>, userId: string, original: NonNullable<CreateEmailJobInput['original']>): Promise<OriginalResult> {
  const email = await findReceivedEmail(sql, userId, original.emailId)
  if (!email) return { found: false }
  if (original.action === 'reply') {
    return { found: true, parts: { threading: replyThreading({ messageId: email.messageId, inReplyTo: email.inReplyTo, references: email.referenceIds }), attachments: [] } }
  }
  const ids = [...new Set(original.attachmentIds)]
  const rows = await findAttachmentsOf(sql, userId, email.id, ids)
  // every id must be one of this message's attachments
  if (rows.length !== ids.length) return { found: false }
  if (rows.reduce((sum, a) => sum + a.size, 0) > config.maxMessageBytes) return { tooLarge: true }
  const box = receivedMailBox(config)
  return { found: true, parts: { attachments: rows.map((a) => ({ filename: a.filename, contentType: a.contentType, content: box.open(a.content, a.id) })) } }
}
