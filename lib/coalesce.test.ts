import { describe, expect, it } from 'vitest'
import { coalesce } from './coalesce.ts'

describe('coalesce', () => {
  it('runs an idle call at once and gathers the calls made while it is in flight', async () => {
    const batches: number[][] = []
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const double = coalesce(async (inputs: number[]) => {
      batches.push(inputs)
      if (batches.length === 1) await gate
      return inputs.map((n) => n * 2)
    })
    const first = double(1)
    expect(batches).toEqual([[1]]) // started without waiting for company
    const rest = [2, 3, 4].map(double)
    release()
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6, 8])
    expect(batches).toEqual([[1], [2, 3, 4]])
  })

  it('keeps batches within the limit and rejects only the calls of a failed batch', async () => {
    const batches: string[][] = []
    const run = coalesce(async (inputs: string[]) => {
      batches.push(inputs)
      if (inputs.includes('bad')) throw new Error('statement failed')
      return inputs
    }, 2)
    const results = await Promise.allSettled(['a', 'b', 'bad', 'c', 'd'].map(run))
    expect(batches).toEqual([['a'], ['b', 'bad'], ['c', 'd']])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled'])
  })
})
