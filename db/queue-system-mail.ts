// The service's own mail (address verification, password reset, notices, forward-target
// confirmation, DNS problems of a custom domain) goes through the outgoing queue like any other
// mail: one email job, built and sealed now, sent by send-email From no-reply on the first mail
// domain and DKIM-signed for it. Queued inside the caller's transaction, so the mail exists
// exactly when the change does. Here, below api/ and workers/, so both can queue it.
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Db } from './client.ts'
import type { Config } from '../lib/config.ts'
import { composeMessage } from '../lib/compose-message.ts'
import type { EmailJobPurpose } from './email-jobs.ts'
import { queueEmailJob } from './queue-email-job.ts'

/** Ahead of bulk mail: a person is waiting for this one. */
const PRIORITY = 10

export const noReplyAddress = (config: Pick<Config, 'mailDomains'>) => `no-reply@${config.mailDomains[0]}`

export interface SystemMail {
  userId: string
  to: string
  subject: string
  text: string
  /** what the send's outcome does besides (a forward target's test mail) */
  purpose?: EmailJobPurpose
  /** tries after the first; unset, as any outgoing mail */
  maxRetries?: number
}

export async function queueSystemMail(db: Db, deps: { boss: PgBoss; config: Config }, mail: SystemMail): Promise<string> {
  const { config } = deps
  const id = randomUUID()
  const now = new Date()
  const raw = await composeMessage({
    from: `Veilmail <${noReplyAddress(config)}>`, to: mail.to, subject: mail.subject, body: mail.text,
    messageId: `<${id}@${config.mailDomains[0]}>`, date: now,
  })
  await queueEmailJob(db, deps, {
    id, userId: mail.userId, aliasId: null, source: 'system', recipientEmail: mail.to, raw,
    useEncryption: false, shareMyPublicKey: false, priority: PRIORITY, scheduledAt: now, undoUntil: now,
    purpose: mail.purpose, maxRetries: mail.maxRetries,
  })
  return id
}
