// "Send a test mail" to a forward target (issue 30): queued here as the service's own mail (an
// email job from no-reply, purpose 'target-test', one try), signed and handed to the relay by the
// delivery process, which on success lifts the target's bounce mark and releases its held
// forwards (workers/delivery/target-test-mail.ts). The web process neither signs nor connects.
// The browser polls the job: sending, taken, refused (the server's code and reason) or failed;
// or queued, when no delivery process has taken it QUEUED_AFTER_MS after it was queued (the
// delivery process may not be running): the browser stops polling then.
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import type { EmailJobRow } from '../../db/email-jobs.ts'
import { queueSystemMail } from '../../db/queue-system-mail.ts'
import type { Config } from '../../lib/config.ts'
import type { TargetTestMailView } from '../../shared/alias-schemas.ts'

const RELAY_AWAY = 'The mail could not be handed to the relay now. Please try again later.'
/** A delivery process takes a test mail within seconds; one still waiting this long is shown as queued. */
export const QUEUED_AFTER_MS = 20_000

/** The test mail's job id. */
export function queueTargetTestMail(deps: { sql: Sql; boss: PgBoss; config: Config }, userId: string, email: string): Promise<string> {
  return deps.sql.begin((tx) => queueSystemMail(tx, deps, {
    userId, to: email, subject: 'Veilmail test mail',
    text: 'This is a test mail from Veilmail. Your aliases forward to this address again.\n',
    // a test answers now: a relay that is away fails it ("try again later") instead of retrying for minutes
    purpose: 'target-test', maxRetries: 0,
  }))
}

export function targetTestMailView(job: EmailJobRow): TargetTestMailView {
  if (job.status === 'sent') return { status: 'taken', code: null, message: `The test mail was taken for ${job.recipientEmail}; forwarding to it is on.` }
  if (job.status === 'failed' && job.lastCode !== null) return { status: 'refused', code: job.lastCode, message: `The test mail was not taken: ${job.lastError ?? ''}` }
  if (job.status === 'failed' || job.status === 'cancelled') return { status: 'failed', code: null, message: `The test mail was not taken: ${RELAY_AWAY}` }
  if (job.status === 'pending' && Date.now() - job.scheduledAt.getTime() >= QUEUED_AFTER_MS) {
    return { status: 'queued', code: null, message: `The test mail to ${job.recipientEmail} is still queued: the delivery process may not be running. It is sent once a delivery process takes it.` }
  }
  return { status: 'sending', code: null, message: `The test mail to ${job.recipientEmail} is on its way.` }
}
