// mailbox_sync_jobs: the state of each sync-mailbox job as the UI polls it.
import type { Db } from './client.ts'

export type SyncJobStatus = 'queued' | 'running' | 'done' | 'failed'

export interface SyncJobRow {
  id: string
  providerId: string
  status: SyncJobStatus
  newEmailsCount: number
  error: string | null
  createdAt: Date
  finishedAt: Date | null
}

const columns = (db: Db) => db`id, provider_id, status, new_emails_count, error, created_at, finished_at`

export async function insertSyncJob(db: Db, id: string, userId: string, providerId: string): Promise<void> {
  await db`insert into mailbox_sync_jobs (id, user_id, provider_id) values (${id}, ${userId}, ${providerId})`
}

/** The job already waiting for this account, so a second Sync press shares it. */
export async function findQueuedSyncJob(db: Db, providerId: string): Promise<string | undefined> {
  const [row] = await db<{ id: string }[]>`
    select id from mailbox_sync_jobs where provider_id = ${providerId} and status = 'queued' order by created_at desc limit 1`
  return row?.id
}

export async function findSyncJob(db: Db, userId: string, id: string): Promise<SyncJobRow | undefined> {
  const [row] = await db<SyncJobRow[]>`select ${columns(db)} from mailbox_sync_jobs where id = ${id} and user_id = ${userId}`
  return row
}

export async function setSyncJobStatus(db: Db, id: string, status: SyncJobStatus, result: { newEmailsCount?: number; fetchedCount?: number; error?: string | null } = {}): Promise<void> {
  const finished = status === 'done' || status === 'failed'
  await db`
    update mailbox_sync_jobs set status = ${status}, new_emails_count = coalesce(${result.newEmailsCount ?? null}::int, new_emails_count),
      fetched_count = coalesce(${result.fetchedCount ?? null}::int, fetched_count),
      error = ${result.error ?? null}, finished_at = ${finished ? db`clock_timestamp()` : null},
      started_at = ${status === 'running' ? db`clock_timestamp()` : db`started_at`}
    where id = ${id}`
}

/** Finished jobs are kept a day for the UI to read their result. */
export async function deleteFinishedSyncJobs(db: Db, olderThanSeconds: number): Promise<number> {
  const rows = await db`
    delete from mailbox_sync_jobs where finished_at < now() - make_interval(secs => ${olderThanSeconds}) returning id`
  return rows.length
}
