// How work for a connected mailbox is queued, by the API and by the sync schedule (next to the
// queue definitions, below both). A sync request while one is already waiting for the account
// returns that job instead of queuing a second.
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Db, Sql } from './client.ts'
import { lockEmailProvider } from './email-providers.ts'
import { findQueuedSyncJob, insertSyncJob } from './mailbox-sync-jobs.ts'
import { enqueue, queues } from './queues.ts'

/** The id of the sync job for this account (new, or the one already waiting); undefined when the account is gone. */
export async function requestSync(sql: Sql, boss: PgBoss, providerId: string): Promise<string | undefined> {
  return sql.begin(async (tx) => {
    const provider = await lockEmailProvider(tx, providerId)
    if (!provider) return undefined
    const waiting = await findQueuedSyncJob(tx, providerId)
    if (waiting) return waiting
    const id = randomUUID()
    await insertSyncJob(tx, id, provider.userId, providerId)
    // grouped by user: a process runs only so many of one user's syncs at once (workers/sync/sync-worker.ts)
    await enqueue(tx, boss, queues.syncMailbox, { providerId }, { id, singletonKey: providerId, group: { id: provider.userId } })
    return id
  })
}

/**
 * Queues the write-back of the account's pending changes, inside the caller's transaction. One
 * job waiting per account is enough (it writes every pending change it finds), so a refusal
 * because one is already waiting is success.
 */
export async function requestMailboxChanges(db: Db, boss: PgBoss, providerId: string): Promise<void> {
  try {
    // grouped by account: one write-back of an account runs at a time (a delete's later job has a key of its own)
    await enqueue(db, boss, queues.mailboxChanges, { providerId }, { singletonKey: providerId, group: { id: providerId } })
  } catch (error) {
    if (!(error instanceof Error && error.message.endsWith('refused the job'))) throw error
  }
}

/**
 * Queues the write-back of a draft's save (or its discard), inside the caller's transaction: a key
 * of its own per save, so it is never refused behind a write-back of the account that is already
 * running and has read its drafts; grouped by account like every write-back, so they run one at a time.
 */
export async function requestDraftWrite(db: Db, boss: PgBoss, providerId: string, draftId: string, version: number): Promise<void> {
  await enqueue(db, boss, queues.mailboxChanges, { providerId }, { singletonKey: `${providerId}:draft:${draftId}:${version}`, group: { id: providerId } })
}
