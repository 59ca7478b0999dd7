// Received mail (README "Connecting a mailbox"): read from Postgres only, never
// from IMAP on a page load. Star, read and delete change the row at once and queue a
// mailbox-changes job (same transaction) that writes them to the IMAP server.
import { Hono } from 'hono'
import { findUserFolder } from '../../db/mailbox-folders.ts'
import { findAttachment, listAttachments } from '../../db/received-attachments.ts'
import {
  countConversations, countFolderEmails, countReceivedEmails, findReceivedEmail, listConversation, listConversationPage, listReceivedEmails, markEmailDeleted, markEmailMoved, ownsReceivedEmail, restoreDeletedEmail, searchConversationPage, setEmailFlags, type ReceivedEmailListRow,
} from '../../db/received-emails.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import { receivedMailBox } from '../../lib/received-mail-box.ts'
import { requestMailboxChanges } from '../../db/sync-requests.ts'
import { isEmptySearch, parseMailSearch } from '../../shared/mail-search-query.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { jsonBody, queryParams } from '../http/validate.ts'
import { inboxSeen } from './inbox-seen.ts'
import { searchBodies } from './mail-body-search.ts'
import { mailEvents } from './mail-events.ts'
import { CountsQuerySchema, ListEmailsQuerySchema, MoveEmailSchema, UpdateEmailSchema, type EmailDetailView, type EmailListPage, type EmailListView } from '../../shared/email-schemas.ts'

function listView(box: SecretBox, row: ReceivedEmailListRow, previewChars: number): EmailListView {
  return {
    id: row.id, providerId: row.providerId, folderId: row.folderId, messageId: row.messageId, threadId: row.threadId, subject: row.subject,
    fromAddress: row.fromAddress, fromName: row.fromName, toAddress: row.toAddress, receivedAt: row.receivedAt.toISOString(),
    size: row.size, isRead: row.isRead, isStarred: row.isStarred, hasAttachments: row.hasAttachments,
    preview: row.preview ? box.openText(row.preview, `${row.id}:preview`).slice(0, previewChars) : '',
  }
}

/** A content type safe to put in a header; anything else is served as bytes. */
const safeContentType = (type: string) => (/^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream')

/** RFC 6266 filename: an ASCII fallback and the UTF-8 name (RFC 8187). */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

export const emailRoutes = new Hono<AppEnv>()
  .get('/', signedIn, inboxSeen, queryParams(ListEmailsQuerySchema), async (c) => {
    const q = c.req.valid('query')
    const { sql, config } = c.var.deps
    const parsed = parseMailSearch(q.q ?? '')
    if (!parsed.ok) return c.json({ message: parsed.message, errors: { q: [parsed.message] } }, 400)
    const searching = !isEmptySearch(parsed.search)
    const where = { providerId: q.providerId === 'all' ? undefined : q.providerId, folderId: q.folder }
    // the words in bodies, asked of the user's IMAP servers (mail-body-search.ts); the rest is stored here
    const body = searching ? await searchBodies(c.var.deps, c.var.user.id, parsed.search.words, where) : undefined
    const scope = { ...where, category: q.category, ...(body ? { search: { search: parsed.search, bodyIds: body.ids } } : {}) }
    const byConversation = q.by === 'conversation'
    const [rows, total, more] = scope.search && byConversation
      // a search looks through the newest mail first, else reads its matches once for the page and the total
      ? await searchConversationPage(sql, c.var.user.id, { ...scope, search: scope.search, limit: q.limit, offset: q.offset })
        .then(async (page) => [page.rows, page.more ? undefined : page.total ?? await countConversations(sql, c.var.user.id, scope), page.more] as const)
      : await Promise.all([
        (byConversation ? listConversationPage : listReceivedEmails)(sql, c.var.user.id, { ...scope, limit: q.limit, offset: q.offset }),
        byConversation ? countConversations(sql, c.var.user.id, scope) : undefined,
      ])
    // the list holds the user's own mail only, so a folder with rows is theirs; an empty page may be
    // another user's folder (or none), which is not found like any resource of theirs
    if (q.folder && rows.length === 0 && !(await findUserFolder(sql, c.var.user.id, q.folder))) return notFound(c)
    const box = receivedMailBox(config)
    const page: EmailListPage = {
      success: true, emails: rows.map((r) => listView(box, r, 100)), ...(total === undefined ? {} : { total }), ...(more ? { more } : {}),
      ...(body ? { unsearched: body.unsearched } : {}),
    }
    return c.json(page)
  })
  .get('/counts', signedIn, inboxSeen, queryParams(CountsQuerySchema), async (c) => {
    const q = c.req.valid('query')
    const { sql } = c.var.deps
    // another user's folder (or none) has no counts: not found
    const counts = q.folder
      ? await countFolderEmails(sql, c.var.user.id, q.folder)
      : await countReceivedEmails(sql, c.var.user.id, q.providerId === 'all' ? undefined : q.providerId)
    if (!counts) return notFound(c)
    return c.json({ success: true as const, ...counts })
  })
  // the live inbox: "mail" whenever the user's stored mail changed (mail-events.ts)
  .get('/events', signedIn, (c) => mailEvents(c))
  .get('/:emailId', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const row = await findReceivedEmail(sql, c.var.user.id, c.req.param('emailId'))
    if (!row) return notFound(c)
    const box = receivedMailBox(config)
    const [attachments, conversation] = await Promise.all([listAttachments(sql, row.id), listConversation(sql, c.var.user.id, row.threadId)])
    const email: EmailDetailView = {
      ...listView(box, row, 150), userId: row.userId, ccAddresses: row.ccAddresses, bccAddresses: row.bccAddresses, replyTo: row.replyTo,
      inReplyTo: row.inReplyTo, references: row.referenceIds,
      body: row.bodyText ? box.openText(row.bodyText, `${row.id}:text`) : '',
      html: row.bodyHtml ? box.openText(row.bodyHtml, `${row.id}:html`) : null,
      attachments: attachments.map((a) => ({
        id: a.id, filename: a.filename, contentType: a.contentType, contentId: a.contentId, size: a.size, url: `/api/emails/${row.id}/attachments/${a.id}`,
      })),
      conversationEmails: conversation.map((r) => listView(box, r, 150)),
      syncedAt: row.syncedAt.toISOString(), createdAt: row.createdAt.toISOString(),
    }
    return c.json({ success: true, email })
  })
  .patch('/:emailId', signedIn, async (c, next) => {
    // another user's message answers 404 whatever the body
    if (!(await ownsReceivedEmail(c.var.deps.sql, c.var.user.id, c.req.param('emailId')))) return notFound(c)
    await next()
  }, jsonBody(UpdateEmailSchema), async (c) => {
    const { sql, boss } = c.var.deps
    const flags = c.req.valid('json')
    const updated = await sql.begin(async (tx) => {
      const row = await setEmailFlags(tx, c.var.user.id, c.req.param('emailId'), flags)
      if (row) await requestMailboxChanges(tx, boss, row.providerId)
      return row
    })
    if (!updated) return notFound(c)
    return c.json({ success: true, message: 'Email updated' })
  })
  .delete('/:emailId', signedIn, async (c) => {
    const { sql, boss } = c.var.deps
    const deleted = await sql.begin(async (tx) => {
      const row = await markEmailDeleted(tx, c.var.user.id, c.req.param('emailId'))
      if (row) await requestMailboxChanges(tx, boss, row.providerId)
      return row
    })
    if (!deleted) return notFound(c)
    return c.json({ success: true, message: 'Email deleted successfully' })
  })
  .post('/:emailId/move', signedIn, async (c, next) => {
    // another user's message answers 404 whatever the body
    if (!(await ownsReceivedEmail(c.var.deps.sql, c.var.user.id, c.req.param('emailId')))) return notFound(c)
    await next()
  }, jsonBody(MoveEmailSchema), async (c) => {
    // Archive / Move to: hidden at once, moved on the server after the undo window (Undo: POST …/restore)
    const { sql, boss } = c.var.deps
    const moved = await sql.begin(async (tx) => {
      const row = await markEmailMoved(tx, c.var.user.id, c.req.param('emailId'), c.req.valid('json').folderId)
      if (row) await requestMailboxChanges(tx, boss, row.providerId)
      return row
    })
    if (!moved) return c.json({ message: 'That folder is not one of this account\'s other folders', errors: { folderId: ['Choose another folder of the same account'] } }, 404)
    return c.json({ success: true, message: 'Email moved' })
  })
  .post('/:emailId/restore', signedIn, async (c) => {
    // Undo of a delete: the message is back while its move to Trash has not reached the server
    const { sql, boss } = c.var.deps
    const restored = await sql.begin(async (tx) => {
      const row = await restoreDeletedEmail(tx, c.var.user.id, c.req.param('emailId'))
      if (row) await requestMailboxChanges(tx, boss, row.providerId)
      return row
    })
    if (!restored) return c.json({ message: 'The email is no longer here to restore: look for it in Trash.' }, 404)
    return c.json({ success: true, message: 'Email restored' })
  })
  .get('/:emailId/attachments/:attachmentId', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const attachment = await findAttachment(sql, c.var.user.id, c.req.param('emailId'), c.req.param('attachmentId'))
    if (!attachment) return notFound(c)
    const content = receivedMailBox(config).open(attachment.content, attachment.id)
    return c.body(new Uint8Array(content), 200, {
      'Content-Type': safeContentType(attachment.contentType),
      'Content-Disposition': contentDisposition(attachment.filename),
      'Content-Length': String(content.length),
      'X-Content-Type-Options': 'nosniff',
    })
  })
