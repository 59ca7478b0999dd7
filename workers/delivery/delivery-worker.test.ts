import { describe, expect, it } from 'vitest'
import { concurrencyPerQueue, QueueConcurrencyError } from './delivery-worker.ts'

describe('concurrency per queue', () => {
  it('derives every queue from DELIVERY_CONCURRENCY and lets QUEUE_CONCURRENCY name its own', () => {
    expect(concurrencyPerQueue(8)).toMatchObject({ 'forward-email': 64, 'forward-webhook': 8, 'forward-reply': 4, 'retry-undelivered': 2, 'send-email': 32 })
    expect(concurrencyPerQueue(1)).toMatchObject({ 'forward-reply': 1, 'retry-undelivered': 1, 'send-email': 4 })
    expect(concurrencyPerQueue(8, { 'send-email': 1, 'forward-email': 40 })).toMatchObject({ 'send-email': 1, 'forward-email': 40, 'forward-webhook': 8 })
  })

  it('refuses a queue that does not exist, naming it', () => {
    expect(() => concurrencyPerQueue(8, { 'send-mail': 4 })).toThrow(QueueConcurrencyError)
    expect(() => concurrencyPerQueue(8, { 'send-mail': 4 })).toThrow(/QUEUE_CONCURRENCY: no queue named send-mail/)
  })
})
