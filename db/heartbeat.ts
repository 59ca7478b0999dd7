// Each long-running process beats into process_heartbeats, so a dead worker shows in
// /api/health and `npm run ops -- health` even when nothing supervises it.
import os from 'node:os'
import type { Db } from './client.ts'
import { recordHeartbeat, removeHeartbeat } from './process-heartbeats.ts'
import { errorFields, log } from '../lib/log.ts'

/** The Procfile's processes, in its order (scripts/start.test.ts checks they match). */
export const MONITORED_PROCESSES = ['web', 'mx', 'delivery', 'submission', 'sync'] as const
export const HEARTBEAT_SECONDS = 5
/** A process that missed this long of beats is reported dead. */
export const HEARTBEAT_STALE_SECONDS = 15

/** Beats now and every HEARTBEAT_SECONDS; the returned stop() removes this copy's row. */
export function startHeartbeat(db: Db, processName: string): () => Promise<void> {
  const instance = `${os.hostname()}:${process.pid}`
  let down = false
  const beat = () => recordHeartbeat(db, processName, instance).then(
    () => {
      if (down) log.info('heartbeat.restored')
      down = false
    },
    (error) => {
      // the database is down or restarting: keep beating, it reconnects on its own
      if (!down) log.warn('heartbeat.failed', errorFields(error))
      down = true
    },
  )
  void beat()
  const timer = setInterval(() => void beat(), HEARTBEAT_SECONDS * 1000)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await removeHeartbeat(db, processName, instance).catch(() => {})
  }
}
