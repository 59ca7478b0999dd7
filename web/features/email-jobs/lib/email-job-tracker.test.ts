import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ToastInput } from '../../../components/ui/use-toast.ts'
import type { EmailJobStatus } from '../api/get-email-job-status.ts'
import { createEmailJobTracker, JOB_STATUS_POLL_MS } from './email-job-tracker.ts'

const status = (over: Partial<EmailJobStatus>): EmailJobStatus => ({
  success: true, status: 'pending', currentRetries: 0, maxRetries: 5, lastError: null, messageId: null, canUndo: false, ...over,
})

/** A tracker whose status calls answer from per-job scripts, one answer per poll. */
function setup(scripts: Record<string, (EmailJobStatus | Error)[]>) {
  const calls: string[] = []
  const toasts: ToastInput[] = []
  const tracker = createEmailJobTracker({
    getStatus: async (jobId) => {
      calls.push(jobId)
      const next = scripts[jobId].shift()
      if (!next) throw new Error(`no answer scripted for ${jobId}`)
      if (next instanceof Error) throw next
      return next
    },
    notify: (t) => toasts.push(t),
  })
  return { tracker, calls, toasts, tick: () => vi.advanceTimersByTimeAsync(JOB_STATUS_POLL_MS) }
}

describe('email job tracker', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('polls every 10 s, not before, and stops after the sent toast', async () => {
    const { tracker, calls, toasts, tick } = setup({ a: [status({}), status({ status: 'sending' }), status({ status: 'sent' })] })
    tracker.track('a')
    expect(tracker.getSnapshot()).toEqual([{ jobId: 'a', status: 'pending', currentRetries: 0 }])
    await vi.advanceTimersByTimeAsync(JOB_STATUS_POLL_MS - 1)
    expect(calls).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toEqual(['a'])
    await tick()
    expect(tracker.getSnapshot()[0].status).toBe('sending')
    await tick()
    expect(toasts.map((t) => t.title)).toEqual(['Email sent successfully'])
    expect(tracker.getSnapshot()).toEqual([])
    await tick()
    expect(calls).toHaveLength(3)
  })

  it('announces a retry once, then the failure with the last error, and stops', async () => {
    const retrying = status({ status: 'retrying', currentRetries: 1, lastError: '451 greylisted' })
    const { tracker, toasts, tick } = setup({ a: [retrying, retrying, status({ status: 'failed', currentRetries: 5, lastError: '451 greylisted' })] })
    tracker.track('a')
    await tick()
    await tick()
    await tick()
    expect(toasts).toEqual([
      { title: 'Retrying email delivery', description: 'Attempt 1 of 5 failed: 451 greylisted. Trying again automatically.' },
      { title: 'Email delivery failed', description: '451 greylisted', variant: 'destructive' },
    ])
    expect(tracker.getSnapshot()).toEqual([])
  })

  it('stops silently on cancelled, on a failed status call and on success false', async () => {
    const { tracker, calls, toasts, tick } = setup({
      a: [status({ status: 'cancelled' })],
      b: [new Error('500 Internal Server Error')],
      c: [{ ...status({}), success: false }],
    })
    tracker.track('a')
    tracker.track('b')
    tracker.track('c')
    tracker.track('c') // tracking twice polls once
    expect(tracker.getSnapshot()).toHaveLength(3)
    await tick()
    expect(calls).toEqual(['a', 'b', 'c'])
    expect(tracker.getSnapshot()).toEqual([])
    expect(toasts).toEqual([])
    await tick()
    expect(calls).toHaveLength(3)
  })

  it('keeps polling a job whose answers say it is in progress, each job on its own clock', async () => {
    const { tracker, calls, tick } = setup({ a: [status({}), status({})], b: [status({ status: 'sent' })] })
    tracker.track('a')
    await vi.advanceTimersByTimeAsync(4000)
    tracker.track('b')
    await vi.advanceTimersByTimeAsync(6000)
    expect(calls).toEqual(['a'])
    await vi.advanceTimersByTimeAsync(4000)
    expect(calls).toEqual(['a', 'b'])
    await tick()
    expect(calls).toEqual(['a', 'b', 'a'])
    expect(tracker.getSnapshot().map((j) => j.jobId)).toEqual(['a'])
  })

  it('ignores an answer that arrives after the job was untracked or cleared', async () => {
    let answer!: (s: EmailJobStatus) => void
    const toasts: ToastInput[] = []
    const tracker = createEmailJobTracker({ getStatus: () => new Promise((resolve) => (answer = resolve)), notify: (t) => toasts.push(t) })
    tracker.track('a')
    await vi.advanceTimersByTimeAsync(JOB_STATUS_POLL_MS)
    tracker.untrack('a')
    answer(status({ status: 'sent' }))
    await vi.advanceTimersByTimeAsync(0)
    expect(toasts).toEqual([])

    tracker.track('b')
    const seen: number[] = []
    const unsubscribe = tracker.subscribe(() => seen.push(tracker.getSnapshot().length))
    tracker.clear()
    unsubscribe()
    await vi.advanceTimersByTimeAsync(JOB_STATUS_POLL_MS * 2)
    expect(seen).toEqual([0])
    expect(toasts).toEqual([])
  })
})
