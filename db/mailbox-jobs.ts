// Jobs of the sync queues that are still waiting for an account (pg-boss keeps them in its own
// schema; they carry the account id as their singleton key).
import type { Db } from './client.ts'

/** Removes an account's waiting sync and write-back jobs (with the account, in one transaction). */
export async function deleteWaitingMailboxJobs(db: Db, providerId: string, queueNames: string[]): Promise<number> {
  const rows = await db`
    delete from pgboss.job where name = any(${queueNames}) and singleton_key = ${providerId} and state in ('created', 'retry') returning id`
  return rows.length
}
