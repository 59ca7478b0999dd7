import { describe, expect, it } from 'vitest'
import type { EmailJobStatus } from '../api/get-email-job-status.ts'
import { jobStatusOutcome, SENT_TOAST } from './job-status-outcome.ts'

const status = (over: Partial<EmailJobStatus>): EmailJobStatus => ({
  success: true, status: 'pending', currentRetries: 0, maxRetries: 5, lastError: null, messageId: null, canUndo: false, ...over,
})

describe('jobStatusOutcome', () => {
  it('says whom a sent mail did not reach when some recipients refused it', () => {
    const note = 'Sent, but not delivered to nobody@example.org (550 5.1.1 mailbox unavailable)'
    expect(jobStatusOutcome(status({ status: 'sent', messageId: '<a@b>', lastError: note }), 0))
      .toEqual({ done: true, toast: { title: 'Not delivered to every recipient', description: note, variant: 'destructive' }, retriesSeen: 0 })
  })

  it('stops with the success toast once sent', () => {
    expect(jobStatusOutcome(status({ status: 'sent', messageId: '<a@b>' }), 0)).toEqual({ done: true, toast: SENT_TOAST, retriesSeen: 0 })
    expect(SENT_TOAST).toEqual({ title: 'Email sent successfully', description: 'Your email was delivered successfully.' })
  })

  it('stops with a destructive toast carrying the last error when failed', () => {
    const outcome = jobStatusOutcome(status({ status: 'failed', currentRetries: 0, lastError: '550 5.1.1 rejected by test relay' }), 0)
    expect(outcome.done).toBe(true)
    expect(outcome.toast).toEqual({ title: 'Email delivery failed', description: '550 5.1.1 rejected by test relay', variant: 'destructive' })
  })

  it('counts the attempts when a failed job has no last error, and says "Unknown error" before any attempt', () => {
    expect(jobStatusOutcome(status({ status: 'failed', currentRetries: 5 }), 5).toast?.description).toBe(
      'Unable to deliver after 5 attempts. Please try sending again or contact the recipient directly.',
    )
    expect(jobStatusOutcome(status({ status: 'failed', currentRetries: 0, lastError: '' }), 0).toast?.description).toBe('Unknown error')
  })

  it('stops silently when cancelled', () => {
    expect(jobStatusOutcome(status({ status: 'cancelled' }), 0)).toEqual({ done: true, retriesSeen: 0 })
  })

  it.each(['pending', 'sending', 'retrying', 'queued-somewhere-new'])('keeps polling while %s', (s) => {
    expect(jobStatusOutcome(status({ status: s }), 0)).toEqual({ done: false, retriesSeen: 0 })
  })

  it('says a mail retried for some recipients has left for the others, once per retry', () => {
    const note = 'Sent to 3 of 4; retrying bob@example.net (server said 451 4.2.1 try later)'
    const partly = status({ status: 'retrying', currentRetries: 1, messageId: '<a@b>', lastError: note })
    expect(jobStatusOutcome(partly, 0)).toEqual({ done: false, retriesSeen: 1, toast: { title: 'Sent to some recipients', description: note } })
    expect(jobStatusOutcome(partly, 1).toast).toBeUndefined()
  })

  it('announces each new retry once, with the previous error or "Authentication failed"', () => {
    const first = jobStatusOutcome(status({ status: 'retrying', currentRetries: 1, lastError: '421 try later' }), 0)
    expect(first).toEqual({
      done: false, retriesSeen: 1,
      toast: { title: 'Retrying email delivery', description: 'Attempt 1 of 5 failed: 421 try later. Trying again automatically.' },
    })
    expect(jobStatusOutcome(status({ status: 'retrying', currentRetries: 1, lastError: '421 try later' }), 1).toast).toBeUndefined()
    expect(jobStatusOutcome(status({ status: 'pending', currentRetries: 2 }), 1).toast?.description).toBe(
      'Attempt 2 of 5 failed: Authentication failed. Trying again automatically.',
    )
  })
})
