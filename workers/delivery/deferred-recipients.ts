// A mail to several whose server took it for some recipients and deferred others (RCPT 4xx) is
// retried to the deferred ones alone, as Postfix and Gmail do: the same message (Message-ID,
// headers, body, To/Cc as written), only the envelope narrowed to them, on the send-email queue's
// own retry schedule, until each is taken or the retries run out. A recipient refused with 5xx is
// never tried again. The row keeps the envelope of the next attempt (pending_recipients) and the
// recipients refused for good (refused_recipients); its status says who has it and who is still
// being tried, and ends sent (naming whom it did not reach) or failed when nobody took it.
import { markEmailJobFailed, markRecipientsDeferred, type ClaimedEmailJob, type EmailJobRow } from '../../db/email-jobs.ts'
import type { Sql } from '../../db/client.ts'
import type { WorkContext } from '../../db/queues.ts'
import { missedList, notDeliveredNote, refusalNote, refusedForGood, replyLine, type RefusedRecipient } from '../../lib/refused-recipients.ts'

/** A recipient this attempt did not reach: `later` when another try may reach it (a 4xx, a connection that failed). */
export interface Refusal extends RefusedRecipient {
  later: boolean
}

/** The recipients this attempt goes to: those still owed the mail, or every one before any has it. */
export const envelopeOf = (job: Pick<EmailJobRow, 'pendingRecipients' | 'recipients'>): string[] => job.pendingRecipients ?? job.recipients

/** An earlier attempt was settled per recipient: this one goes to the deferred ones (and some may have the mail). */
export const settledBefore = (job: Pick<EmailJobRow, 'pendingRecipients'>): boolean => job.pendingRecipients !== null

/** Some recipients already have this mail: what is left is a retry to the deferred ones. */
export const partlySent = (job: Pick<EmailJobRow, 'messageId'>): boolean => job.messageId !== null

/** The server's per-recipient refusals, 4xx to be tried again. */
export const refusalsOf = (refused: readonly RefusedRecipient[]): Refusal[] => refused.map((r) => ({ ...r, later: !refusedForGood(r) }))

/** Every recipient of this attempt missed for one reason (the connection, the login, the message refused). */
export const everyoneMissed = (job: ClaimedEmailJob, reply: string, later: boolean): Refusal[] =>
  envelopeOf(job).map((address) => ({ address, reply: replyLine(reply, 200), later }))

/**
 * Whether a send whose server refused every recipient (`refused`) is settled per recipient here
 * rather than as a whole mail: when an earlier attempt was (some may have it, some were refused for
 * good), or when some refusals are for good and others not (the 5xx ones are not retried with the rest).
 */
const perRecipient = (job: ClaimedEmailJob, refused: readonly Refusal[]): boolean =>
  refused.length > 0 && (settledBefore(job) || (refused.some((r) => r.later) && refused.some((r) => !r.later)))

export class RecipientsDeferred extends Error {
  override name = 'RecipientsDeferred'
  constructor() {
    super('some recipients were deferred; they are tried again') // no address: this is what the queue keeps
  }
}

interface Settled {
  /** someone took the mail for the first time in this attempt: its one-time steps (the original's mark) are due */
  firstDelivery: boolean
  /** retrying: the deferred ones are tried again (throw RecipientsDeferred once the one-time steps are done); else done: sent (note: whom it did not reach) or failed (nobody took it) */
  outcome: { status: 'retrying' } | { status: 'sent'; note: string | null } | { status: 'failed' }
}

/**
 * Records what an attempt that reached some of its envelope (or none, `refused` being all of it)
 * leaves to do. Deferred recipients with retries left: the row goes back to `retrying` with them as
 * its envelope (the caller then throws RecipientsDeferred, and the queue retries the job with its
 * backoff). Else the final state: failed when nobody has the mail, or sent with the note of whom
 * it missed (the caller marks it sent, the one place that does).
 */
export async function settleRecipients(sql: Sql, job: ClaimedEmailJob, ctx: WorkContext, messageId: string, refused: readonly Refusal[]): Promise<Settled> {
  const envelope = envelopeOf(job)
  const firstDelivery = !partlySent(job) && refused.length < envelope.length
  const forGood: RefusedRecipient[] = [...(job.refusedRecipients ?? []), ...refused.filter((r) => !r.later).map(plain)]
  const deferred = refused.filter((r) => r.later).map(plain)
  const delivered = job.recipients.length - forGood.length - deferred.length
  if (deferred.length && ctx.retryCount < job.maxRetries) {
    await markRecipientsDeferred(sql, job.id, { messageId: delivered > 0 ? messageId : null, pending: deferred.map((r) => r.address), refused: forGood, note: retryNote(delivered, job.recipients.length, deferred, forGood) })
    return { firstDelivery, outcome: { status: 'retrying' } }
  }
  const missed = [...forGood, ...deferred]
  if (delivered <= 0) {
    await markEmailJobFailed(sql, job.id, notDeliveredNote(missed))
    return { firstDelivery, outcome: { status: 'failed' } }
  }
  return { firstDelivery, outcome: { status: 'sent', note: missed.length ? refusalNote(missed) : null } }
}

const plain = ({ address, reply, code }: RefusedRecipient): RefusedRecipient => (code === undefined ? { address, reply } : { address, reply, code })

/**
 * "Sent to 3 of 4; retrying bob@example.net (server said 451 …)" ("Retrying …" while none has it),
 * then whom it will not reach; a retry missed for no reply of the server's (the relay not answering) gives its reason alone.
 */
function retryNote(delivered: number, total: number, deferred: readonly RefusedRecipient[], forGood: readonly RefusedRecipient[]): string {
  const retrying = deferred.map((r) => `${r.address} (${r.code ? `server said ${r.reply || 'try again later'}` : r.reply || 'try again later'})`).join('; ')
  const refused = forGood.length ? `; not delivered to ${missedList(forGood)}` : ''
  return `${delivered > 0 ? `Sent to ${delivered} of ${total}; retrying` : 'Retrying'} ${retrying}${refused}`.slice(0, 1000)
}

/**
 * The recipients a failed attempt missed, when they are settled one by one: `refusedEvery` (the
 * server refused every recipient, each with its reply) when perRecipient says so; for a retry of
 * deferred ones, every one of this envelope, missed for `reply` and tried again unless `permanent`.
 * Undefined: the mail as a whole is retried or failed, as before anything left.
 */
export function missedByFailure(job: ClaimedEmailJob, refusedEvery: readonly RefusedRecipient[], reply: string, permanent: boolean): Refusal[] | undefined {
  const all = refusalsOf(refusedEvery)
  if (perRecipient(job, all)) return all
  if (settledBefore(job)) return everyoneMissed(job, reply, !permanent)
  return undefined
}
