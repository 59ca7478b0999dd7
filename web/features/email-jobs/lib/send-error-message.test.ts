import { describe, expect, it } from 'vitest'
import { sendErrorMessage, sendErrorToast } from './send-error-message.ts'

describe('sendErrorMessage ("Unable to send email")', () => {
  it.each([
    ['554 5.7.1 Service unavailable; client host listed on a blocklist', 'Email delivery temporarily delayed due to server restrictions. Please try again in a few minutes.'],
    ['Message blocked by policy', 'Email delivery temporarily delayed due to server restrictions. Please try again in a few minutes.'],
    ['535 Authentication failed', 'Email settings need updating. Please check your email configuration in Settings.'],
    ['Invalid login credentials', 'Email settings need updating. Please check your email configuration in Settings.'],
    ['550 Invalid recipient', "Please check the recipient's email address and try again."],
    ['550 5.1.1 Unknown user', "Please check the recipient's email address and try again."],
    ['Failed to queue email', 'Unable to process your email right now. Please try again in a moment.'],
    ['', 'Unable to process your email right now. Please try again in a moment.'],
  ])('%j', (message, advice) => {
    expect(sendErrorMessage(message)).toBe(advice)
  })

  it('falls back for a missing message and follows the order of the rules when several match', () => {
    expect(sendErrorMessage(undefined)).toBe('Unable to process your email right now. Please try again in a moment.')
    expect(sendErrorMessage('Authentication blocked')).toMatch(/server restrictions/)
  })

  it('builds the destructive toast under one title', () => {
    expect(sendErrorToast('Unknown user')).toEqual({
      title: 'Unable to send email', description: "Please check the recipient's email address and try again.", variant: 'destructive',
    })
  })
})
