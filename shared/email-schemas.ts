// Received mail as the API takes and returns it (GET/PATCH /api/emails). Keep this file
// free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { MAX_QUERY_CHARS } from './mail-search-query.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `providerId` is an account id or "all"; at most 200 a page (the unread category's fetch), 50 by default. */
export const ListEmailsQuerySchema = v.object({
  providerId: v.optional(v.pipe(v.string(), v.check((s) => s === 'all' || UUID.test(s), 'providerId must be an account id or all')), 'all'),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'limit must be a whole number'), v.transform(Number), v.minValue(1, 'limit must be at least 1'), v.maxValue(200, 'limit must be 200 or less')), '50'),
  offset: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'offset must be a whole number'), v.transform(Number), v.maxValue(1_000_000, 'offset is too large')), '0'),
  category: v.optional(v.picklist(['inbox', 'unread', 'starred'], 'category must be inbox, unread or starred'), 'inbox'),
  /** one folder of the user's accounts (a mailbox_folders id) */
  folder: v.optional(v.pipe(v.string(), v.check((s) => UUID.test(s), 'folder must be a folder id'))),
  /** what limit and offset count: messages (the default), or conversations, whose page also answers their total */
  by: v.optional(v.picklist(['message', 'conversation'], 'by must be message or conversation'), 'message'),
  /** the search box (shared/mail-search-query.ts): only the mail it matches */
  q: v.optional(v.pipe(v.string(), v.maxLength(MAX_QUERY_CHARS, `q must be ${MAX_QUERY_CHARS} characters or less`))),
})

export const CountsQuerySchema = v.object({
  providerId: v.optional(v.pipe(v.string(), v.check((s) => s === 'all' || UUID.test(s), 'providerId must be an account id or all')), 'all'),
  folder: v.optional(v.pipe(v.string(), v.check((s) => UUID.test(s), 'folder must be a folder id'))),
  category: v.optional(v.string()),
})

export const UpdateEmailSchema = v.pipe(
  v.object({
    isRead: v.optional(v.boolean('isRead must be true or false')),
    isStarred: v.optional(v.boolean('isStarred must be true or false')),
  }),
  v.check((b) => b.isRead !== undefined || b.isStarred !== undefined, 'At least one field (isRead or isStarred) must be provided'),
)

/** POST /api/emails/{id}/move: another folder of the message's account (a mailbox_folders id, e.g. its \Archive). */
export const MoveEmailSchema = v.object({
  folderId: v.pipe(v.string('folderId must be a folder id'), v.check((s) => UUID.test(s), 'folderId must be a folder id')),
})

/** A row of the list (and of a conversation): no body, a preview of 100 (list) or 150 characters. */
export interface EmailListView {
  id: string
  providerId: string
  /** the folder it was synced from (FolderView.id): INBOX, or another folder the user enabled */
  folderId: string
  messageId: string | null
  threadId: string
  subject: string
  fromAddress: string
  fromName: string
  toAddress: string
  receivedAt: string
  size: number
  isRead: boolean
  isStarred: boolean
  hasAttachments: boolean
  preview: string
}

export interface AttachmentView {
  id: string
  filename: string
  contentType: string
  contentId: string | null
  size: number
  /** GET it for the bytes (Content-Disposition: attachment) */
  url: string
}

export interface EmailDetailView extends EmailListView {
  userId: string
  ccAddresses: string
  bccAddresses: string
  /** Reply-To's addresses, comma-separated ('' when the message names none): Reply and Reply all answer them instead of From */
  replyTo: string
  inReplyTo: string | null
  references: string[]
  /** the text body ("" when the message has only HTML) */
  body: string
  /** the HTML body as sent: the browser must sanitize it before showing it */
  html: string | null
  attachments: AttachmentView[]
  /** every message of its conversation, oldest first, this one included */
  conversationEmails: EmailListView[]
  syncedAt: string
  createdAt: string
}

/** An account whose message bodies a search could not ask its server about (the rest of the results stand). */
export interface UnsearchedAccountView { providerId: string; email: string; reason: string }

/**
 * GET /api/emails: `total` (the list's conversations) only when paged by=conversation; with `q`,
 * `unsearched` names the accounts whose bodies were not searched this time, and `more` instead of
 * `total` says the page came from the newest mail and more results may follow (not counted).
 */
export interface EmailListPage { success: true; emails: EmailListView[]; total?: number; more?: true; unsearched?: UnsearchedAccountView[] }

export interface EmailCountsView { success: true; total: number; unread: number; starred: number; bytes: number }
