import { describe, expect, it } from 'vitest'
import { readOutlookReturn, withoutOutlookReturn } from './outlook-return.ts'

const q = (s: string) => new URLSearchParams(s)

describe('Outlook return', () => {
  it('is nothing on an ordinary visit', () => {
    expect(readOutlookReturn(q(''))).toBeUndefined()
    expect(readOutlookReturn(q('tab=x'))).toBeUndefined()
  })

  it('reads success with the new account and its first sync job', () => {
    expect(readOutlookReturn(q('status=success&providerId=p1&jobId=j1'))).toEqual({ status: 'success', providerId: 'p1', jobId: 'j1' })
    expect(readOutlookReturn(q('status=success'))).toEqual({ status: 'success', providerId: undefined, jobId: undefined })
  })

  it('shows only the server\'s known reasons for any other status, never text from the address', () => {
    expect(readOutlookReturn(q('status=error&reason=denied'))).toEqual({ status: 'failure', description: 'Microsoft sign-in was cancelled.' })
    expect(readOutlookReturn(q('status=error&reason=exists'))).toEqual({ status: 'failure', description: 'This mailbox is already connected.' })
    for (const hostile of ['status=error&reason=Call+us+at+555', 'status=error&reason=toString', 'status=error&reason=__proto__', 'status=whatever']) {
      expect(readOutlookReturn(q(hostile))).toEqual({ status: 'failure', description: 'Could not connect your Outlook account. Please try again.' })
    }
  })

  it('clears its own parameters and keeps the rest', () => {
    expect(withoutOutlookReturn(q('status=success&providerId=p&jobId=j&reason=x&keep=1')).toString()).toBe('keep=1')
  })
})
