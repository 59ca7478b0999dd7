// Outgoing e-mail from the web: queue, status, cancel (undo).
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { cancelEmailJob, findEmailJob, type EmailJobRow } from '../../db/email-jobs.ts'
import { encryptToRecipient, isArmoredAge } from '../../lib/age.ts'
import { composeMessage } from '../../lib/compose-message.ts'
import { queueEmailJob } from '../../db/queue-email-job.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { tooMany } from '../http/rate-limit.ts'
import { jsonBody } from '../http/validate.ts'
import { countRecipients } from '../../db/recipient-limits.ts'
import { recipientExposure } from './recipient-privacy.ts'
import { originalParts } from './original-email.ts'
import { findJobSender } from './job-sender.ts'
import { discardDraft } from '../../db/mailbox-drafts.ts'
import { requestDraftWrite } from '../../db/sync-requests.ts'
import { CreateEmailJobSchema, type EmailJobStatusView } from '../../shared/email-job-schemas.ts'

function statusView(job: EmailJobRow): EmailJobStatusView {
  return {
    success: true, status: job.status, currentRetries: job.currentRetries, maxRetries: job.maxRetries,
    lastError: job.lastError, messageId: job.messageId,
    canUndo: (job.status === 'pending' || job.status === 'retrying') && job.messageId === null && job.undoUntil.getTime() > Date.now(),
  }
}

export const emailJobRoutes = new Hono<AppEnv>()
  .post('/', signedIn, jsonBody(CreateEmailJobSchema), async (c) => {
    const input = c.req.valid('json')
    const { sql, boss, config } = c.var.deps
    const sender = await findJobSender(sql, c.var.user.id, input)
    if ('message' in sender) return c.json(sender, 400)
    // a reply's threading fields, a forward's attachments: from the user's own message only
    const original = input.original ? await originalParts(sql, config, c.var.user.id, input.original) : undefined
    if (original && 'tooLarge' in original) return c.json({ message: 'The attachments are too large to forward', errors: { original: ['The attachments are too large to forward'] } }, 400)
    if (original && !original.found) return notFound(c)
    const parts = original?.parts

    // one message to every recipient, To then Cc; each seen by all of them, and each counted
    const exposed = await recipientExposure(sql, c.var.user.id, sender, input.to, input.cc)
    if (exposed) return c.json(exposed, 400)
    const recipients = [...input.to, ...input.cc]
    const limit = await countRecipients(sql, config, c.var.user.id, recipients.length)
    if (!limit.allowed) return tooMany(c, limit.hit, limit.message)

    // The web app encrypts in the browser; an API client may send plain text to be encrypted here.
    let body = input.body
    if (input.useEncryption && !isArmoredAge(body)) body = await encryptToRecipient(body, input.recipientPublicKey!)

    const id = randomUUID()
    const now = Date.now()
    const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : new Date(now)
    const undoUntil = new Date(now + config.undoSeconds * 1000)
    // Built now, dated when it is due to leave; the worker signs and sends these bytes.
    const raw = await composeMessage({
      from: sender.address, to: input.to, cc: input.cc, subject: input.subject, body, messageId: `<${id}@${sender.domain}>`,
      date: new Date(Math.max(scheduledAt.getTime(), undoUntil.getTime())),
      sharedPublicKey: input.shareMyPublicKey ? input.myPublicKeyToShare : undefined,
      inReplyTo: parts?.threading?.inReplyTo, references: parts?.threading?.references, attachments: parts?.attachments,
    })
    await sql.begin(async (tx) => {
      await queueEmailJob(tx, { boss, config }, {
        id, userId: c.var.user.id, aliasId: sender.aliasId, providerId: sender.providerId, source: 'compose', recipientEmail: recipients[0], recipients, raw,
        useEncryption: input.useEncryption, shareMyPublicKey: input.shareMyPublicKey, priority: input.priority, scheduledAt, undoUntil,
        original: input.original && { emailId: input.original.emailId, action: input.original.action },
      })
      // the draft it was written as leaves the account's Drafts folder (Undo brings the text back to compose, which saves it anew)
      const draft = input.draftId ? await discardDraft(tx, c.var.user.id, input.draftId) : undefined
      if (draft) await requestDraftWrite(tx, boss, draft.providerId, input.draftId!, draft.version)
    })
    return c.json({ jobId: id, canUndo: config.undoSeconds > 0 }, 201)
  })
  .get('/:jobId/status', signedIn, async (c) => {
    const job = await findEmailJob(c.var.deps.sql, c.var.user.id, c.req.param('jobId'))
    return job ? c.json(statusView(job)) : notFound(c)
  })
  .post('/:jobId/cancel', signedIn, async (c) => {
    const { sql } = c.var.deps
    const job = await findEmailJob(sql, c.var.user.id, c.req.param('jobId'))
    if (!job) return notFound(c)
    if (!(await cancelEmailJob(sql, c.var.user.id, job.id))) {
      return c.json({ success: false, message: 'The email may have already been sent.' }, 409)
    }
    return c.json({ success: true, message: 'Email sending cancelled' })
  })
