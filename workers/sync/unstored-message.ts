// A message the sync could not store as it is: too large for the service, unreadable, or refused
// by the database. It is stored as a row that says so, under the server's UID, so the folder's
// cursor moves past it, the mail around it arrives, and the user learns it exists and where to
// read it. It is never fetched again (unless the folder's UIDVALIDITY changes).
import type { ParsedMessage } from './received-mail.ts'
import { cleanLine } from './stored-text.ts'

/** Why a message is stored as a placeholder. */
export type UnstoredReason = 'too-large' | 'unreadable' | 'refused'

const EXPLANATIONS: Record<UnstoredReason, (maxBytes: number) => string> = {
  'too-large': (max) => `It is larger than the ${Math.round(max / (1024 * 1024))} MB this service reads, or its server sent more than the size it announced.`,
  unreadable: () => 'Its content could not be read as an e-mail message.',
  refused: () => 'Its content could not be saved.',
}

export const UNSTORED_SUBJECT = '(Message not shown)'

/** The placeholder's fields: what happened and where the message still is. */
export function unstoredMessage(reason: UnstoredReason, where: { folder: string; uid: number }, maxBytes: number): ParsedMessage {
  const text = `Veilmail could not show this message. ${EXPLANATIONS[reason](maxBytes)} ` +
    `It is still on your mail server, in the folder "${cleanLine(where.folder, 200)}" (UID ${where.uid}): open it with your provider's own webmail or app.`
  return {
    messageId: null, inReplyTo: null, referenceIds: [], subject: UNSTORED_SUBJECT, fromAddress: '', fromName: 'Veilmail', toAddress: '',
    ccAddresses: '', bccAddresses: '', date: null, text, html: null, preview: text.slice(0, 150), attachments: [],
  }
}
