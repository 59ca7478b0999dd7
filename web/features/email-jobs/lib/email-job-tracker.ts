// Tracks queued e-mail jobs by polling their status every 10 s (the only polling in
// the app) and announces each outcome once. Plain TypeScript with its dependencies passed in, so
// a test can drive it with fake timers; the app's one instance lives in email-jobs.ts.
import type { ToastInput } from '../../../components/ui/use-toast.ts'
import type { EmailJobStatus } from '../api/get-email-job-status.ts'
import { jobStatusOutcome } from './job-status-outcome.ts'

export const JOB_STATUS_POLL_MS = 10_000

export interface TrackedEmailJob {
  jobId: string
  /** The last status seen; 'pending' until the first answer. */
  status: string
  currentRetries: number
}

export interface EmailJobTrackerDeps {
  getStatus: (jobId: string) => Promise<EmailJobStatus>
  notify: (toast: ToastInput) => void
  intervalMs?: number
}

export interface EmailJobTracker {
  track(jobId: string): void
  /** Stops tracking silently (the job was cancelled here). */
  untrack(jobId: string): void
  /** Stops every job, e.g. when the signed-in user changes. */
  clear(): void
  subscribe(listener: () => void): () => void
  /** Jobs still in progress; a new array after every change (for useSyncExternalStore). */
  getSnapshot(): readonly TrackedEmailJob[]
}

interface Entry {
  job: TrackedEmailJob
  retriesSeen: number
  timer?: ReturnType<typeof setTimeout>
}

export function createEmailJobTracker({ getStatus, notify, intervalMs = JOB_STATUS_POLL_MS }: EmailJobTrackerDeps): EmailJobTracker {
  const entries = new Map<string, Entry>()
  const listeners = new Set<() => void>()
  let snapshot: readonly TrackedEmailJob[] = []

  function publish() {
    snapshot = [...entries.values()].map((entry) => entry.job)
    for (const listener of listeners) listener()
  }

  function stop(jobId: string) {
    const entry = entries.get(jobId)
    if (!entry) return
    clearTimeout(entry.timer)
    entries.delete(jobId)
    publish()
  }

  function schedule(entry: Entry) {
    entry.timer = setTimeout(() => void poll(entry), intervalMs)
  }

  // An entry that was untracked or replaced while its request was in flight is left alone.
  const current = (entry: Entry) => entries.get(entry.job.jobId) === entry

  async function poll(entry: Entry) {
    let status: EmailJobStatus
    try {
      status = await getStatus(entry.job.jobId)
    } catch {
      if (current(entry)) stop(entry.job.jobId) // a failed status call stops tracking the job
      return
    }
    if (!current(entry)) return
    if (status.success === false) return stop(entry.job.jobId)
    const outcome = jobStatusOutcome(status, entry.retriesSeen)
    if (outcome.toast) notify(outcome.toast)
    if (outcome.done) return stop(entry.job.jobId)
    entry.retriesSeen = outcome.retriesSeen
    entry.job = { jobId: entry.job.jobId, status: status.status, currentRetries: status.currentRetries }
    publish()
    schedule(entry)
  }

  return {
    track(jobId) {
      if (entries.has(jobId)) return
      const entry: Entry = { job: { jobId, status: 'pending', currentRetries: 0 }, retriesSeen: 0 }
      entries.set(jobId, entry)
      schedule(entry)
      publish()
    },
    untrack: stop,
    clear() {
      if (entries.size === 0) return
      for (const entry of entries.values()) clearTimeout(entry.timer)
      entries.clear()
      publish()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getSnapshot: () => snapshot,
  }
}
