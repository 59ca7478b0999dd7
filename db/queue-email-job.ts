// Every outgoing mail enters the queue here, whether composed on the web, submitted over SMTP or
// the service's own (verification, reset, notices): its row, sealed at rest, and its send-email
// job, in the caller's transaction, with one retry policy.
import type { PgBoss } from 'pg-boss'
import type { Db } from './client.ts'
import { insertEmailJob, type NewEmailJob } from './email-jobs.ts'
import type { Config } from '../lib/config.ts'
import { sealEmailJobContent } from '../lib/email-job-content.ts'
import { enqueue, queues } from './queues.ts'

/** Tries of an outgoing mail after the first, with doubling delays from EMAIL_RETRY_DELAY_SECONDS. */
export const EMAIL_MAX_RETRIES = 5

export interface OutgoingEmail extends Omit<NewEmailJob, 'content' | 'maxRetries'> {
  /** the message as it will be signed and sent */
  raw: Buffer
  /** tries after the first (EMAIL_MAX_RETRIES unless set; 0: one try, a temporary failure fails it) */
  maxRetries?: number
}

/** Leaves when its undo window and its scheduled time have both passed. */
export async function queueEmailJob(db: Db, deps: { boss: PgBoss; config: Pick<Config, 'secretKey' | 'emailRetryDelaySeconds'> }, mail: OutgoingEmail): Promise<void> {
  const { raw, maxRetries = EMAIL_MAX_RETRIES, ...row } = mail
  const content = sealEmailJobContent(deps.config.secretKey, mail.id, { kind: 'raw', raw: raw.toString('base64') })
  await insertEmailJob(db, { ...row, content, maxRetries })
  const startAfter = new Date(Math.max(mail.scheduledAt.getTime(), mail.undoUntil.getTime()))
  await enqueue(db, deps.boss, queues.sendEmail, { emailJobId: mail.id }, {
    // at least one retry of the queue entry: a worker that died mid-send leaves its job to another (send-email reclaims it)
    priority: mail.priority, startAfter, retryLimit: Math.max(1, maxRetries), retryDelay: deps.config.emailRetryDelaySeconds, retryBackoff: true,
  })
}
