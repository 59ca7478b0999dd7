import { describe, expect, it } from 'vitest'
import { webhookErrorText } from './webhook-error.ts'

describe('webhook failure reasons', () => {
  it('names the HTTP status or the network reason', () => {
    expect(webhookErrorText('http-503')).toBe('HTTP 503')
    expect(webhookErrorText('ECONNREFUSED')).toBe('connection refused (ECONNREFUSED)')
    expect(webhookErrorText('RequestTimeoutError')).toBe('no answer within 10 seconds (RequestTimeoutError)')
    expect(webhookErrorText('EPROTO')).toBe('EPROTO')
    expect(webhookErrorText(null)).toBe('unknown error')
  })
})
