// A fetched message as the rows the sync stores: its fields parsed (received-mail.ts), its
// bodies, preview and attachments sealed and bound to the ids the rows will have. Used by the
// parse thread (parse-thread.ts) for fetched batches and by the sync itself for a streamed
// message; a prepared batch crosses between threads packed into one transferred ArrayBuffer.
import { randomUUID } from 'node:crypto'
import type { FetchMessageObject } from 'imapflow'
import type { NewAttachment } from '../../db/received-attachments.ts'
import type { NewReceivedEmail, ServerFlags } from '../../db/received-emails.ts'
import { SecretBox } from '../../lib/secret-box.ts'
import type { ThreadInput } from './mail-threads.ts'
import { threadSubject, type ParsedMessage } from './received-mail.ts'

/** The secret box of synced mail: bodies, previews and attachments, each bound to its row id. */
export const receivedMailSecretBox = (secretKey: string) => new SecretBox(secretKey, 'received-mail')

export type MessageMeta = Pick<FetchMessageObject, 'uid' | 'flags' | 'modseq' | 'size' | 'internalDate'>

export interface PreparedMessage { email: Omit<NewReceivedEmail, 'threadId'>; thread: ThreadInput; attachments: NewAttachment[] }

/** Whose and where the prepared rows go. */
export interface RowOwner { userId: string; providerId: string; folderId: string }

export function serverFlags(uid: number, flags: Set<string> | undefined, modseq: bigint | undefined): ServerFlags {
  return { uid, isRead: !!flags?.has('\\Seen'), isStarred: !!flags?.has('\\Flagged'), isAnswered: !!flags?.has('\\Answered'), modseq: modseq ?? null }
}

/** A parsed message as its rows: bodies, preview and attachments sealed, bound to the row ids. */
export function prepareMessage(box: SecretBox, owner: RowOwner, message: MessageMeta, parsed: ParsedMessage): PreparedMessage {
  const id = randomUUID()
  const flags = serverFlags(message.uid, message.flags, message.modseq)
  const internalDate = message.internalDate instanceof Date ? message.internalDate : message.internalDate ? new Date(message.internalDate) : null
  const subjectKey = threadSubject(parsed.subject)
  return {
    email: {
      id, userId: owner.userId, providerId: owner.providerId, folderId: owner.folderId, uid: message.uid,
      messageId: parsed.messageId, inReplyTo: parsed.inReplyTo, referenceIds: parsed.referenceIds, threadSubject: subjectKey,
      subject: parsed.subject, fromAddress: parsed.fromAddress, fromName: parsed.fromName, toAddress: parsed.toAddress,
      ccAddresses: parsed.ccAddresses, bccAddresses: parsed.bccAddresses,
      receivedAt: parsed.date ?? internalDate ?? new Date(), size: message.size ?? 0,
      isRead: flags.isRead, isStarred: flags.isStarred, isAnswered: flags.isAnswered,
      hasAttachments: parsed.attachments.some((a) => a.listed), modseq: flags.modseq,
      preview: box.seal(parsed.preview, `${id}:preview`),
      // bodies are text: compressed before sealing, they cost Postgres (and the wire, and the disk) a third or less
      bodyText: parsed.text === null ? null : box.seal(parsed.text, `${id}:text`, { compress: true }),
      bodyHtml: parsed.html === null ? null : box.seal(parsed.html, `${id}:html`, { compress: true }),
    },
    thread: { messageId: parsed.messageId, named: [...(parsed.inReplyTo ? [parsed.inReplyTo] : []), ...parsed.referenceIds], subjectKey },
    attachments: parsed.attachments.map((a) => {
      const attachmentId = randomUUID()
      return {
        id: attachmentId, emailId: id, userId: owner.userId, filename: a.filename, contentType: a.contentType, contentId: a.contentId,
        size: a.content.length, content: box.seal(a.content, attachmentId),
      }
    }),
  }
}

/** Where a packed message's sealed bytes are in the batch's ArrayBuffer: [offset, length], null for no body. */
type Span = [number, number] | null

export interface PackedMessage {
  email: Omit<PreparedMessage['email'], 'preview' | 'bodyText' | 'bodyHtml'> & { preview: Span; bodyText: Span; bodyHtml: Span }
  thread: ThreadInput
  attachments: (Omit<NewAttachment, 'content'> & { content: Span })[]
}

/**
 * A prepared batch as plain objects and one ArrayBuffer holding every sealed value: posted to
 * another thread with the buffer transferred, not copied (a Buffer posted as it is would copy
 * the whole pool slab it was cut from).
 */
export function packBatch(batch: PreparedMessage[]): { messages: PackedMessage[]; bytes: ArrayBuffer } {
  let total = 0
  for (const m of batch) {
    total += m.email.preview.length + (m.email.bodyText?.length ?? 0) + (m.email.bodyHtml?.length ?? 0)
    for (const a of m.attachments) total += a.content.length
  }
  const bytes = new ArrayBuffer(total)
  const view = new Uint8Array(bytes)
  let at = 0
  const put = (value: Buffer | null): Span => {
    if (value === null) return null
    view.set(value, at)
    at += value.length
    return [at - value.length, value.length]
  }
  const messages = batch.map((m): PackedMessage => ({
    email: { ...m.email, preview: put(m.email.preview), bodyText: put(m.email.bodyText), bodyHtml: put(m.email.bodyHtml) },
    thread: m.thread,
    attachments: m.attachments.map((a) => ({ ...a, content: put(a.content) })),
  }))
  return { messages, bytes }
}

/** The batch packBatch packed, its sealed values as views of the one buffer. */
export function unpackBatch(messages: PackedMessage[], bytes: ArrayBuffer): PreparedMessage[] {
  const get = (span: Span) => (span === null ? null : Buffer.from(bytes, span[0], span[1]))
  return messages.map((m) => ({
    email: { ...m.email, preview: get(m.email.preview)!, bodyText: get(m.email.bodyText), bodyHtml: get(m.email.bodyHtml) },
    thread: m.thread,
    attachments: m.attachments.map((a) => ({ ...a, content: get(a.content)! })),
  }))
}
