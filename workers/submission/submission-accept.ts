// DATA on the submission server: the From header must be the authenticated alias; then one
// email job per recipient, the raw message sealed at rest, all committed in one transaction
// before the client hears 250.
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import type { Config } from '../../lib/config.ts'
import { queueEmailJob } from '../../db/queue-email-job.ts'
import { checkFromBinding } from './from-binding.ts'
import { firstValue, joinMessage, makeField, splitMessage } from '../../lib/raw-message.ts'
import type { SubmissionUser } from './submission-auth.ts'

/** Checks the originator fields (From, Sender, Resent-From, Resent-Sender, Reply-To: from-binding.ts), drops Bcc (RFC 5322 §3.6.3), adds a Message-ID on the alias domain if missing. */
export function prepareSubmission(raw: Buffer, user: SubmissionUser, messageId: string): Buffer {
  const { headers, body } = splitMessage(raw)
  checkFromBinding(headers, user.address)
  const kept = headers.filter((h) => h.key !== 'bcc')
  if (!firstValue(headers, 'message-id')) kept.unshift(makeField('Message-ID', messageId))
  return joinMessage(kept, body)
}

export async function acceptSubmission(deps: { sql: Sql; boss: PgBoss; config: Config }, user: SubmissionUser, recipients: string[], raw: Buffer): Promise<string[]> {
  const ids = recipients.map(() => randomUUID())
  const message = prepareSubmission(raw, user, `<${ids[0]}@${user.domain}>`)
  const now = new Date()
  await deps.sql.begin(async (tx) => {
    for (const [i, recipient] of recipients.entries()) {
      await queueEmailJob(tx, deps, {
        id: ids[i], userId: user.userId, aliasId: user.aliasId, source: 'smtp', recipientEmail: recipient, raw: message,
        useEncryption: false, shareMyPublicKey: false, priority: 0, scheduledAt: now, undoUntil: now,
      })
    }
  })
  return ids
}
