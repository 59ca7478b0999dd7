// The sync process's consumers and schedule: sync-mailbox and mailbox-changes jobs, and every
// active account queued for a sync once per SYNC_INTERVAL_SECONDS, at its own moment in the
// interval (dueProviderIds: spread by a hash of its id, ticks a 60th of the interval apart). Any number
// of sync processes can run: the queues' singleton keys and the per-account lock keep two syncs
// of one account apart, and a schedule tick in two processes queues one job (requestSync).
import type { PgBoss } from 'pg-boss'
import { dueProviderIds } from '../../db/email-providers.ts'
import { deleteFinishedSyncJobs } from '../../db/mailbox-sync-jobs.ts'
import { errorFields, log } from '../../lib/log.ts'
import { mailboxChangesHandler } from './mailbox-changes.ts'
import { deadLetterName, queues, work } from '../../db/queues.ts'
import { syncMailboxHandler, type SyncDeps } from './sync-mailbox.ts'
import { requestSync } from '../../db/sync-requests.ts'
import { wakeWhenDue } from '../../db/queue-due.ts'
import { retryLostJobs } from '../lost-jobs.ts'

export interface SyncWorkerOptions {
  /** mailboxes synced at once by this process (SYNC_CONCURRENCY) */
  concurrency: number
  /** seconds between syncs of one account (SYNC_INTERVAL_SECONDS) */
  intervalSeconds: number
  /** how often the schedule looks for due accounts (default a 60th of the interval, 1 to 10 s) */
  tickSeconds?: number
  pollSeconds?: number
}

/** How long a running sync may go on once the process stops (the queue waits 10 s at most). */
const STOP_GRACE_MS = 2000

/** Accounts queued per schedule tick (the rest wait for the next tick). */
const DUE_PER_TICK = 500

/**
 * Syncs of one user's accounts running at once, across every sync process: half the slots of one
 * process (at least one), so one user's accounts, however many and however slow their servers,
 * never take every slot from the others.
 */
export const perUserSyncs = (concurrency: number) => Math.max(1, Math.floor(concurrency / 2))

/**
 * The accounts' moments are spread over the interval: a tick every 60th of it (1 to 10 s) queues
 * them in small groups, never a bunch of a minute's worth at once.
 */
export const scheduleTickSeconds = (intervalSeconds: number) => Math.min(10, Math.max(1, intervalSeconds / 60))

export async function startSyncWorker(boss: PgBoss, deps: SyncDeps, options: SyncWorkerOptions): Promise<() => Promise<void>> {
  const pollSeconds = options.pollSeconds ?? 10
  // stopping closes every IMAP connection at once: no stop waits for a slow or hostile server
  const stopping = new AbortController()
  const running = { ...deps, stopSignal: stopping.signal }
  const loops = {
    [queues.syncMailbox.name]: await work(boss, queues.syncMailbox, syncMailboxHandler(running), { concurrency: options.concurrency, pollSeconds, groupConcurrency: perUserSyncs(options.concurrency) }),
    // one write-back of an account at a time, across processes (jobs are grouped by account)
    [queues.mailboxChanges.name]: await work(boss, queues.mailboxChanges, mailboxChangesHandler(running), { concurrency: options.concurrency, pollSeconds, groupConcurrency: 1 }),
  }
  // a write-back due when a delete's undo window ends runs then, and a sync whose process died
  // runs again within about 30 s, not after its retry delay or the next poll
  const stopWakeUps = await wakeWhenDue(deps.sql, boss, loops)
  const stopLostSweep = retryLostJobs(deps.sql, Object.keys(loops))
  // a write-back that gave up leaves its changes pending; the next one (Sync, the next change) tries again
  await work(boss, { ...queues.mailboxChanges, name: deadLetterName(queues.mailboxChanges) }, async () => {}, { pollSeconds: 60 })
  let ticking: Promise<void> | undefined
  const tick = async () => {
    try {
      for (const providerId of await dueProviderIds(deps.sql, options.intervalSeconds, DUE_PER_TICK)) {
        await requestSync(deps.sql, boss, providerId)
      }
      await deleteFinishedSyncJobs(deps.sql, 86_400)
    } catch (error) {
      log.warn('sync.schedule_failed', errorFields(error))
    }
  }
  const timer = setInterval(() => { ticking ??= tick().finally(() => { ticking = undefined }) }, (options.tickSeconds ?? scheduleTickSeconds(options.intervalSeconds)) * 1000)
  ticking = tick().finally(() => { ticking = undefined })
  return async () => {
    clearInterval(timer)
    stopLostSweep()
    await stopWakeUps()
    // a sync gets a moment to end on its own, then its connection is closed whatever its server does
    setTimeout(() => stopping.abort(), STOP_GRACE_MS).unref()
    await ticking
  }
}
