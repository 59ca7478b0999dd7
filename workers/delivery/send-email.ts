// send-email: delivers one email job through the outbound transport, From the alias (the
// service's own mail: no-reply on the first mail domain), with a Message-ID on that domain,
// DKIM-signed for it; a job sent as a connected mailbox goes through that account's own SMTP
// server instead (send-as-mailbox.ts). A 5xx fails the job at once; anything else
// is retried with backoff until maxRetries. A recipient deferred (4xx) while others took the mail
// is retried alone, as the same message (deferred-recipients.ts). The row's status follows every step, and the claim
// (pending|retrying → sending) makes a duplicated or retried job send at most once. Claims and
// "sent" marks of jobs running side by side go to Postgres together (lib/coalesce.ts).
import { claimEmailJobs, noteRefusedRecipients, markEmailJobFailed, markEmailJobRetrying, markEmailJobsSent, reclaimEmailJob, type ClaimedEmailJob, type EmailJobRow } from '../../db/email-jobs.ts'
import type { Sql } from '../../db/client.ts'
import type { PgBoss } from 'pg-boss'
import { markEmailAnswered } from '../../db/received-emails.ts'
import { requestMailboxChanges } from '../../db/sync-requests.ts'
import { coalesce } from '../../lib/coalesce.ts'
import { composeMessage } from '../../lib/compose-message.ts'
import { openEmailJobContent, type EmailJobContent } from '../../lib/email-job-content.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { everyRecipientRefused, PermanentDeliveryError, relayReason } from '../../lib/outbound-transport.ts'
import type { RefusedRecipient } from '../../lib/refused-recipients.ts'
import { envelopeOf, everyoneMissed, missedByFailure, RecipientsDeferred, refusalsOf, settledBefore, settleRecipients, type Refusal } from './deferred-recipients.ts'
import type { Payload, queues, WorkContext } from '../../db/queues.ts'
import { firstValue, splitMessage } from '../../lib/raw-message.ts'
import { isRelayUnreachable } from './relay-watch.ts'
import { sendAsMailbox } from './send-as-mailbox.ts'
import { markTargetTestSent } from './target-test-mail.ts'

/** `boss` queues the write-back of \Answered / $Forwarded on a replied or forwarded message. */
export function sendEmailHandler(deps: DeliveryDeps, boss: PgBoss) {
  const claim = coalesce((ids: string[]) => claimEmailJobs(deps.sql, ids))
  const markSent = coalesce((sent: { id: string; messageId: string }[]) => markEmailJobsSent(deps.sql, sent))
  const markOriginal = (job: ClaimedEmailJob) => markOriginalOf(deps.sql, boss, job)
  const markTargetTest = (job: ClaimedEmailJob, messageId: string) => markTargetTestSent(deps.sql, boss, job, messageId)
  return (payload: Payload<typeof queues.sendEmail>, ctx: WorkContext) => sendEmail(deps, { claim, markSent, markOriginal, markTargetTest }, payload, ctx)
}

interface Writes {
  claim(id: string): Promise<ClaimedEmailJob | undefined>
  markSent(sent: { id: string; messageId: string }): Promise<void>
  markOriginal(job: ClaimedEmailJob): Promise<void>
  /** a forward target's test mail was taken: sent, and the target's bounce mark lifted */
  markTargetTest(job: ClaimedEmailJob, messageId: string): Promise<void>
}

async function sendEmail(deps: DeliveryDeps, writes: Writes, payload: Payload<typeof queues.sendEmail>, ctx: WorkContext): Promise<void> {
  const { sql, config } = deps
  // A retry of a job whose row is still `sending` means the earlier attempt lost its lease.
  const job = (await writes.claim(payload.emailJobId)) ?? (ctx.retryCount > 0 ? await reclaimEmailJob(sql, payload.emailJobId) : undefined)
  if (!job) return // cancelled, sent, failed or gone: nothing to do
  if (job.providerId) {
    const sent = await sendAsMailbox(deps, job, ctx)
    if (!sent) return
    return markSent(sql, writes, job, ctx, sent.messageId, sent.missed)
  }
  // a mail some recipients already have ends sent, naming the others, not failed; one settled per
  // recipient before (none may have it yet) names those refused for good too
  const giveUp = (reason: string) => (settledBefore(job) ? markSent(sql, writes, job, ctx, job.messageId ?? '', everyoneMissed(job, reason, false)) : markEmailJobFailed(sql, job.id, reason))
  const sender = senderOf(job, config.mailDomains[0])
  // a mailbox removed leaves provider_id null as an alias deleted leaves alias_id: a composed mail may have been either
  if (!sender || !job.content) return giveUp(job.source === 'smtp' ? 'The sending alias no longer exists' : 'The sending alias or mailbox was removed')
  if (job.source !== 'system' && !job.aliasCanSend) return giveUp('The sending alias is paused')

  const { domain, from } = sender
  const content = openEmailJobContent(config.secretKey, job.id, job.content)
  const raw = await messageOf(content, from, job, `<${job.id}@${domain}>`)
  const messageId = firstValue(splitMessage(raw).headers, 'message-id') ?? `<${job.id}@${domain}>`
  let refused: RefusedRecipient[] | void
  try {
    refused = await deps.transport.send({ id: `job-${job.id}`, from: envelopeSender(deps, job, from, domain), to: envelopeOf(job), raw: await deps.dkim.sign(raw, domain) })
  } catch (error) {
    const reply = replyText(error)
    const permanent = error instanceof PermanentDeliveryError
    const missed = missedByFailure(job, everyRecipientRefused(error), permanent ? relayReason(error) : reply, permanent)
    if (missed) return markSent(sql, writes, job, ctx, messageId, missed)
    if (error instanceof PermanentDeliveryError) return markEmailJobFailed(sql, job.id, relayReason(error), error.responseCode ?? null)
    if (ctx.retryCount >= job.maxRetries) return markEmailJobFailed(sql, job.id, reply)
    await markEmailJobRetrying(sql, job.id, reply)
    throw error
  }
  if (job.purpose === 'target-test') return writes.markTargetTest(job, messageId)
  await markSent(sql, writes, job, ctx, messageId, refusalsOf(refused ?? []))
}

/**
 * Sent to everyone, or to those who took it (deferred-recipients.ts: the ones deferred are tried
 * again, throwing RecipientsDeferred for the queue's retry; the status names the others), and its
 * original marked once, when the mail first left.
 */
async function markSent(sql: Sql, writes: Writes, job: ClaimedEmailJob, ctx: WorkContext, messageId: string, missed: readonly Refusal[]): Promise<void> {
  const { firstDelivery, outcome } = missed.length || settledBefore(job)
    ? await settleRecipients(sql, job, ctx, messageId, missed)
    : { firstDelivery: true, outcome: { status: 'sent', note: null } as const }
  if (outcome.status === 'sent') {
    await writes.markSent({ id: job.id, messageId })
    if (outcome.note) await noteRefusedRecipients(sql, job.id, outcome.note)
  }
  if (firstDelivery) await writes.markOriginal(job)
  if (outcome.status === 'retrying') throw new RecipientsDeferred()
}

/**
 * The message this mail answered or forwarded gets \Answered or $Forwarded, here and then on its
 * IMAP server by the account's write-back job, queued with the mark. Only once the send succeeded.
 */
async function markOriginalOf(sql: Sql, boss: PgBoss, job: ClaimedEmailJob): Promise<void> {
  const { originalEmailId: emailId, originalAction: action } = job
  if (!emailId || !action) return
  await sql.begin(async (tx) => {
    const marked = await markEmailAnswered(tx, job.userId, emailId, action)
    if (marked) await requestMailboxChanges(tx, boss, marked.providerId)
  })
}

/** The alias a user's mail leaves from; the service's own mail leaves from no-reply on the first mail domain. */
function senderOf(job: ClaimedEmailJob, firstDomain: string): { domain: string; from: string } | undefined {
  if (job.source === 'system') return { domain: firstDomain, from: `no-reply@${firstDomain}` }
  if (!job.aliasName || !job.aliasDomain) return undefined
  return { domain: job.aliasDomain, from: `${job.aliasName}@${job.aliasDomain}` }
}

/**
 * MAIL FROM: the From address; a target's test mail leaves from a tagged SRS address as forwards
 * do (issue 30), so a delivery report the target's server sends later, after a smarthost took the
 * mail, comes back to the MX bound to this test and its target (workers/mx/reported-bounces.ts).
 */
function envelopeSender(deps: DeliveryDeps, job: ClaimedEmailJob, from: string, domain: string): string {
  if (job.purpose !== 'target-test') return from
  return deps.srs.forward(from, domain, Date.now(), deps.srs.bounceTag(job.id, job.recipientEmail, 'test'))
}

function replyText(error: unknown): string {
  const e = error as { response?: string; responseCode?: number; code?: string }
  if (e.response) return e.response.slice(0, 500)
  if (isRelayUnreachable(error)) return 'The mail relay could not be reached'
  return 'Temporary delivery failure'
}

/**
 * The bytes to send: built when the mail was queued (compose) or as the client wrote them
 * (submission; the server checked From). A compose job queued by an older version carries its
 * parts and is built here.
 */
function messageOf(content: EmailJobContent, from: string, job: EmailJobRow, messageId: string): Promise<Buffer> | Buffer {
  if (content.kind === 'raw') return Buffer.from(content.raw, 'base64')
  return composeMessage({ from, to: job.recipientEmail, subject: content.subject, body: content.body, sharedPublicKey: content.sharedPublicKey, messageId, date: new Date() })
}
