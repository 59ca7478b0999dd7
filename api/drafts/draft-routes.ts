// Drafts written as a connected mailbox (README "Drafts"): each save replaces the draft's copy in
// the account's \Drafts folder, written by the account's write-back job (the sync process makes
// every IMAP connection; never here). The message is built here, as an email job's is, and sealed
// until it is APPENDed.
import { Hono } from 'hono'
import { findEmailProvider } from '../../db/email-providers.ts'
import { listFolders } from '../../db/mailbox-folders.ts'
import { discardDraft, draftOwner, findDraft, saveDraft, type DraftRow } from '../../db/mailbox-drafts.ts'
import { findReceivedEmail } from '../../db/received-emails.ts'
import { requestDraftWrite } from '../../db/sync-requests.ts'
import { composeMessage } from '../../lib/compose-message.ts'
import { domainOf } from '../../lib/mail-address.ts'
import { sealDraftMessage } from '../../lib/mailbox-draft-content.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'
import { SaveDraftSchema, type DraftView } from '../../shared/draft-schemas.ts'

const draftView = (row: DraftRow): DraftView => ({ id: row.id, providerId: row.providerId, version: row.version, savedVersion: row.savedVersion, lastError: row.lastError })

export const draftRoutes = new Hono<AppEnv>()
  // signedIn answers 404 for a draftId that is not a UUID, this for another user's draft whatever the body
  .put('/:draftId', signedIn, async (c, next) => {
    const owner = await draftOwner(c.var.deps.sql, c.req.param('draftId'))
    if (owner !== undefined && owner !== c.var.user.id) return notFound(c)
    await next()
  }, jsonBody(SaveDraftSchema), async (c) => {
    const { sql, boss, config } = c.var.deps
    const input = c.req.valid('json')
    const userId = c.var.user.id
    const id = c.req.param('draftId')
    const mailbox = await findEmailProvider(sql, userId, input.providerId)
    if (!mailbox) return c.json({ message: 'The draft must name one of your mailboxes', errors: { providerId: ['The draft must name one of your mailboxes'] } }, 400)
    // reopened from the account's Drafts folder: that copy is the one the first save replaces
    let replaces: { folder: string; uid: number } | undefined
    // only a draft's first save replaces the copy it was reopened from (which is gone once replaced)
    if (input.replacesEmailId && !(await findDraft(sql, userId, id))) {
      const original = await findReceivedEmail(sql, userId, input.replacesEmailId)
      const folder = original?.providerId === mailbox.id ? (await listFolders(sql, mailbox.id)).find((f) => f.id === original.folderId) : undefined
      if (!original || !folder) return notFound(c)
      if (folder.specialUse === '\\Drafts') replaces = { folder: folder.path, uid: original.uid }
    }
    const domain = domainOf(mailbox.email)
    const raw = await composeMessage({
      from: mailbox.email, to: input.to, cc: input.cc ? [input.cc] : undefined, subject: input.subject, body: input.body, messageId: `<draft-${id}-${Date.now()}@${domain}>`, date: new Date(),
    })
    const row = await sql.begin(async (tx) => {
      const saved = await saveDraft(tx, { id, userId, providerId: mailbox.id, content: sealDraftMessage(config, id, raw), replaces })
      if (saved) await requestDraftWrite(tx, boss, mailbox.id, id, saved.version)
      return saved
    })
    // another user's draft id, or one of this user's drafts of another mailbox
    if (!row) return notFound(c)
    return c.json({ draft: draftView(row) })
  })
  .delete('/:draftId', signedIn, async (c) => {
    const { sql, boss } = c.var.deps
    const id = c.req.param('draftId')
    const discarded = await sql.begin(async (tx) => {
      const row = await discardDraft(tx, c.var.user.id, id)
      if (row) await requestDraftWrite(tx, boss, row.providerId, id, row.version)
      return row
    })
    return discarded ? c.json({ message: 'Draft discarded' }) : notFound(c)
  })
