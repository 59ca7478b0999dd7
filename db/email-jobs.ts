// email_jobs: the outgoing queue's rows. Status changes are single guarded updates, so a
// cancel and a worker's claim can never both win.
import type { Db, Sql } from './client.ts'
import { notDeliveredNote, refusalNote, type RefusedRecipient } from '../lib/refused-recipients.ts'

export type EmailJobStatus = 'pending' | 'sending' | 'retrying' | 'sent' | 'failed' | 'cancelled'

export interface EmailJobRow {
  id: string
  userId: string
  aliasId: string | null
  /** sent as this connected mailbox, through its own SMTP server (instead of an alias) */
  providerId: string | null
  source: 'compose' | 'smtp' | 'system'
  recipientEmail: string
  /** every envelope recipient, To then Cc (recipientEmail first; only it for a mail to one) */
  recipients: string[]
  /** the envelope of the next attempt when a server deferred some (RCPT 4xx) while it took the others; null: all of recipients */
  pendingRecipients: string[] | null
  /** the recipients refused for good so far, with their replies (null: none) */
  refusedRecipients: RefusedRecipient[] | null
  content: Buffer | null
  status: EmailJobStatus
  priority: number
  maxRetries: number
  currentRetries: number
  scheduledAt: Date
  undoUntil: Date
  lastError: string | null
  /** set once the mail has left, to some of its recipients at least (then `retrying` means: to the pending ones) */
  messageId: string | null
  /** the synced message this mail answers or forwards (marked \Answered or $Forwarded once sent) */
  originalEmailId: string | null
  originalAction: OriginalAction | null
  purpose: EmailJobPurpose | null
  /** the SMTP code of a permanent refusal (its reply is lastError) */
  lastCode: number | null
}

export type OriginalAction = 'reply' | 'forward'

/** What a job's outcome does beyond the send: 'target-test' lifts a forward target's bounce mark once taken (issue 30). */
export type EmailJobPurpose = 'target-test'

export interface NewEmailJob {
  id: string
  userId: string
  /** null for the service's own mail (source 'system'), sent from no-reply */
  aliasId: string | null
  /** a connected mailbox sending as itself (then aliasId is null) */
  providerId?: string | null
  source: 'compose' | 'smtp' | 'system'
  recipientEmail: string
  /** a mail to several (To then Cc, recipientEmail first); absent: recipientEmail alone */
  recipients?: string[]
  content: Buffer
  useEncryption: boolean
  shareMyPublicKey: boolean
  priority: number
  maxRetries: number
  scheduledAt: Date
  undoUntil: Date
  original?: { emailId: string; action: OriginalAction }
  purpose?: EmailJobPurpose
}

export async function insertEmailJob(db: Db, j: NewEmailJob): Promise<void> {
  await db`
    insert into email_jobs (id, user_id, alias_id, provider_id, source, recipient_email, recipients, content, use_encryption, share_my_public_key, priority, max_retries, scheduled_at, undo_until, original_email_id, original_action, purpose)
    values (${j.id}, ${j.userId}, ${j.aliasId}, ${j.providerId ?? null}, ${j.source}, ${j.recipientEmail}, ${j.recipients && j.recipients.length > 1 ? j.recipients : null}::text[], ${j.content}, ${j.useEncryption}, ${j.shareMyPublicKey}, ${j.priority}, ${j.maxRetries}, ${j.scheduledAt}, ${j.undoUntil},
      ${j.original?.emailId ?? null}, ${j.original?.action ?? null}, ${j.purpose ?? null})`
}

const columns = 'id, user_id, alias_id, provider_id, source, recipient_email, coalesce(recipients, array[recipient_email]) as recipients, pending_recipients, refused_recipients, content, status, priority, max_retries, current_retries, scheduled_at, undo_until, last_error, message_id, original_email_id, original_action, purpose, last_code'

export async function findEmailJob(db: Db, userId: string, jobId: string): Promise<EmailJobRow | undefined> {
  const [row] = await db<EmailJobRow[]>`select ${db.unsafe(columns)} from email_jobs where id = ${jobId} and user_id = ${userId}`
  return row
}

/** The user's test mail to a forward target (a job of another purpose, or another user's, is none). */
export async function findTargetTestMail(db: Db, userId: string, jobId: string): Promise<EmailJobRow | undefined> {
  const [row] = await db<EmailJobRow[]>`select ${db.unsafe(columns)} from email_jobs where id = ${jobId} and user_id = ${userId} and purpose = 'target-test'`
  return row
}

export async function getEmailJob(db: Db, jobId: string): Promise<EmailJobRow | undefined> {
  const [row] = await db<EmailJobRow[]>`select ${db.unsafe(columns)} from email_jobs where id = ${jobId}`
  return row
}

/** Cancels a job nobody has started sending; false when it is too late (also once some recipients have it). */
export async function cancelEmailJob(db: Db, userId: string, jobId: string): Promise<boolean> {
  const rows = await db`
    update email_jobs set status = 'cancelled', cancelled_at = now(), content = null, updated_at = now()
    where id = ${jobId} and user_id = ${userId} and status in ('pending', 'retrying') and message_id is null returning id`
  return rows.length === 1
}

/** A claimed job with what sending needs of its alias (one round trip). */
export interface ClaimedEmailJob extends EmailJobRow {
  aliasName: string | null
  aliasDomain: string | null
  aliasCanSend: boolean | null
}

const withAlias = (db: Db) => db`
  select c.*, a.alias as alias_name, a.domain as alias_domain, (a.active and a.forward_to <> 'null') as alias_can_send
  from claimed c left join aliases a on a.id = c.alias_id`

/**
 * Workers take these jobs (one statement for many). Each id gets its claimed row, or undefined
 * when it was cancelled, finished, held by another, or asked for twice (the first ask wins).
 */
export async function claimEmailJobs(db: Db, jobIds: string[]): Promise<(ClaimedEmailJob | undefined)[]> {
  const rows = await db<ClaimedEmailJob[]>`
    with claimed as (
      update email_jobs set status = 'sending', updated_at = now()
      where id = any(${jobIds}::uuid[]) and status in ('pending', 'retrying') returning ${db.unsafe(columns)})
    ${withAlias(db)}`
  const byId = new Map(rows.map((row) => [row.id, row]))
  return jobIds.map((id) => {
    const row = byId.get(id)
    byId.delete(id)
    return row
  })
}

/**
 * The queue handed this job out again while its row says `sending`: the attempt that set it
 * lost its lease (the worker died or hung past the job's expiry), so this attempt takes over.
 */
export async function reclaimEmailJob(db: Db, jobId: string): Promise<ClaimedEmailJob | undefined> {
  const [row] = await db<ClaimedEmailJob[]>`
    with claimed as (
      update email_jobs set updated_at = now() where id = ${jobId} and status = 'sending' returning ${db.unsafe(columns)})
    ${withAlias(db)}`
  return row
}

export async function markEmailJobsSent(db: Db, sent: { id: string; messageId: string }[]): Promise<void[]> {
  await db`
    update email_jobs e set status = 'sent', message_id = s.message_id, processed_at = now(), content = null, last_error = null, updated_at = now()
    from (select unnest(${sent.map((s) => s.id)}::uuid[]) as id, unnest(${sent.map((s) => s.messageId)}::text[]) as message_id) s
    where e.id = s.id`
  return sent.map(() => undefined)
}

/** A sent mail that some of its recipients refused: its status says whom (the others have it). */
export async function noteRefusedRecipients(db: Db, jobId: string, note: string): Promise<void> {
  await db`update email_jobs set last_error = ${note}, updated_at = now() where id = ${jobId} and status = 'sent'`
}

/**
 * Some recipients have it (`messageId`, null while none has), `pending` were deferred and are
 * tried again alone, `refused` are refused for good; `note` is the status the sender sees.
 */
export async function markRecipientsDeferred(db: Db, jobId: string, d: { messageId: string | null; pending: string[]; refused: RefusedRecipient[]; note: string }): Promise<void> {
  await db`
    update email_jobs set status = 'retrying', current_retries = current_retries + 1, message_id = coalesce(message_id, ${d.messageId}),
      pending_recipients = ${d.pending}::text[], refused_recipients = ${db.json(d.refused as never)}::jsonb, last_error = ${d.note}, updated_at = now()
    where id = ${jobId} and status = 'sending'`
}

export async function markEmailJobRetrying(db: Db, jobId: string, lastError: string): Promise<void> {
  await db`update email_jobs set status = 'retrying', current_retries = current_retries + 1, last_error = ${lastError}, updated_at = now() where id = ${jobId} and status = 'sending'`
}

/** `code`: the SMTP code of a permanent refusal, none for a failure that had no answer. */
export async function markEmailJobFailed(db: Db, jobId: string, lastError: string, code: number | null = null): Promise<void> {
  await db`update email_jobs set status = 'failed', last_error = ${lastError}, last_code = ${code}, processed_at = now(), content = null, updated_at = now() where id = ${jobId}`
}

/**
 * A job whose queue entry ran out of attempts (e.g. workers died mid-send) ends as failed; one some
 * recipients already have ends sent. Either names whom it missed as the worker's final state does
 * (refusalNote, notDeliveredNote): those refused for good with their replies, then those still
 * pending. The row is read and changed under its lock, so a worker's late update cannot fall between.
 */
export async function abandonEmailJob(sql: Sql, jobId: string): Promise<void> {
  await sql.begin(async (tx) => {
    const [job] = await tx<Pick<EmailJobRow, 'messageId' | 'pendingRecipients' | 'refusedRecipients'>[]>`
      select message_id, pending_recipients, refused_recipients from email_jobs
      where id = ${jobId} and status in ('pending', 'sending', 'retrying') for update`
    if (!job) return
    const missed = job.pendingRecipients && [...(job.refusedRecipients ?? []), ...job.pendingRecipients.map((address) => ({ address, reply: 'delivery stopped after repeated interruptions' }))]
    const note = missed && (job.messageId === null ? notDeliveredNote(missed) : refusalNote(missed))
    await tx`update email_jobs set status = ${job.messageId === null ? 'failed' : 'sent'}, last_error = coalesce(${note}, last_error, 'Delivery stopped after repeated interruptions'),
             processed_at = now(), content = null, updated_at = now()
             where id = ${jobId}`
  })
}

/** Retention: finished jobs (sent, failed, cancelled) `days` after they finished. */
export async function deleteFinishedEmailJobs(db: Db, days: number): Promise<number> {
  const rows = await db`
    delete from email_jobs where status in ('sent', 'failed', 'cancelled') and updated_at < now() - make_interval(days => ${days}::int)
    returning id`
  return rows.length
}
