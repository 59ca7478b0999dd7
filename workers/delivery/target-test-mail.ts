// A forward target's test mail (issue 30, "Send a test mail") that the relay took: the job is
// marked sent and the target's bounce mark lifted, its held forwards queued, in one transaction,
// so a worker dying between the two never leaves a sent test with the target still stopped.
// A refused one is failed by send-email like any mail, with the server's code and reason.
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { markEmailJobsSent, type EmailJobRow } from '../../db/email-jobs.ts'
import { reenableTarget } from '../../db/target-reenable.ts'

export async function markTargetTestSent(sql: Sql, boss: PgBoss, job: EmailJobRow, messageId: string): Promise<void> {
  await sql.begin(async (tx) => {
    await markEmailJobsSent(tx, [{ id: job.id, messageId }])
    await reenableTarget(tx, boss, job.userId, job.recipientEmail)
  })
}
