// Drafts saved while composing as a connected mailbox (README "Drafts"), kept in that account's
// \Drafts folder. A draft may be unfinished: any To, an empty subject or body. Keep this file free
// of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { HEADER_INJECTION_MESSAGE, NO_LINE_BREAKS } from './recipient-list.ts'

const uuid = (message: string) => v.pipe(v.string(message), v.uuid(message))

/** PUT /api/drafts/{draftId} (the id is the browser's, made when the compose form opened). */
export const SaveDraftSchema = v.object({
  providerId: uuid('The draft must name one of your mailboxes'),
  to: v.optional(v.pipe(v.string('To must be text'), v.check((s) => NO_LINE_BREAKS.test(s), HEADER_INJECTION_MESSAGE), v.trim(), v.maxLength(1000, 'To is too long')), ''),
  /** as written so far, like To (a reply all's, or one added with the Cc link) */
  cc: v.optional(v.pipe(v.string('Cc must be text'), v.check((s) => NO_LINE_BREAKS.test(s), HEADER_INJECTION_MESSAGE), v.trim(), v.maxLength(1000, 'Cc is too long')), ''),
  subject: v.optional(v.pipe(v.string('Subject must be text'), v.check((s) => NO_LINE_BREAKS.test(s), HEADER_INJECTION_MESSAGE), v.trim(), v.maxLength(900, 'Subject must be 900 characters or less')), ''),
  body: v.optional(v.pipe(v.string('Message must be text'), v.maxLength(5_000_000, 'Email body is too large')), ''),
  /** a draft synced from the account's Drafts folder and reopened: its copy there is the one this replaces */
  replacesEmailId: v.optional(uuid('replacesEmailId must be an email id')),
})
export type SaveDraftInput = v.InferOutput<typeof SaveDraftSchema>

export interface DraftView {
  id: string
  providerId: string
  /** the saves made, and the one on the mail server now (equal: saved there) */
  version: number
  savedVersion: number
  lastError: string | null
}
