import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissToast, toast, TOAST_REMOVE_DELAY_MS, useToasts } from './use-toast.ts'

vi.mock('react', () => ({ useSyncExternalStore: (_s: unknown, get: () => unknown) => get() }))

describe('toast store', () => {
  afterEach(() => vi.useRealTimers())

  it('keeps one toast at a time and removes it 1000 ms after dismissal', () => {
    vi.useFakeTimers()
    toast({ title: 'First' })
    const id = toast({ title: 'Second', variant: 'destructive' })
    expect(useToasts().map((t) => t.title)).toEqual(['Second'])
    dismissToast(id)
    expect(useToasts()[0].open).toBe(false)
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS)
    expect(useToasts()).toEqual([])
  })
})
