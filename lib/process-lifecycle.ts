// Graceful shutdown for every long-running process: SIGINT/SIGTERM run the cleanup once, and a
// process started by `npm start` also stops when its supervisor has died (no orphans).
import { errorFields, log } from './log.ts'

export function onShutdown(cleanup: (reason: string) => Promise<void>): void {
  let stopping = false
  const stop = async (reason: string) => {
    if (stopping) return
    stopping = true
    log.info('process.stopping', { reason })
    const force = setTimeout(() => process.exit(1), 15_000)
    force.unref()
    try {
      await cleanup(reason)
    } catch (error) {
      log.error('process.stop_failed', errorFields(error))
    }
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  const supervisor = Number(process.env.VEILMAIL_SUPERVISOR_PID)
  if (supervisor > 0) {
    setInterval(() => {
      try {
        process.kill(supervisor, 0)
      } catch {
        void stop('supervisor-gone')
      }
    }, 1000).unref()
  }
}
