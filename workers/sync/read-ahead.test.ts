// readAhead, the initial sync's pipeline: the next batch is read while the current one is worked
// on, never more than one read at a time, and a failed read surfaces in its turn.
import { describe, expect, it } from 'vitest'
import { readAhead } from './read-ahead.ts'

/** Reads that finish when the test says so, counting how many run at once. */
function gatedReads() {
  const started: number[] = []
  const gates = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>()
  let running = 0
  let most = 0
  const read = (item: number) => new Promise<string>((resolve, reject) => {
    started.push(item)
    most = Math.max(most, ++running)
    gates.set(item, {
      resolve: (v) => { running--; resolve(v) },
      reject: (e) => { running--; reject(e) },
    })
  })
  return { read, started, gates, most: () => most, running: () => running }
}

describe('readAhead', () => {
  it('reads the next item while the current one is worked on, never two reads at once', async () => {
    const r = gatedReads()
    const seen: string[] = []
    const consumer = (async () => {
      for await (const value of readAhead([0, 1, 2, 3, 4], r.read)) {
        // while item n is worked on, item n + 1 is being read, and nothing further
        expect(r.started).toEqual([0, 1, 2, 3, 4].slice(0, Math.min(seen.length + 2, 5)))
        seen.push(value)
        // the next read finishes while this item is still being worked on
        r.gates.get(seen.length)?.resolve(`v${seen.length}`)
        await expect.poll(() => r.running()).toBe(0)
      }
    })()
    await expect.poll(() => r.started.length).toBe(1)
    r.gates.get(0)!.resolve('v0')
    await consumer
    expect(seen).toEqual(['v0', 'v1', 'v2', 'v3', 'v4'])
    expect(r.most()).toBe(1)
  })

  it('takes the next item from an async source ahead too, one at a time, and stops the source when the caller stops', async () => {
    const taken: number[] = []
    let stopped = false
    async function* source() {
      try {
        for (let i = 0; i < 10; i++) {
          await new Promise((resolve) => setImmediate(resolve)) // the server asked for the item
          taken.push(i)
          yield i
        }
      } finally {
        stopped = true
      }
    }
    const read = async (item: number) => `v${item}`
    const seen: string[] = []
    for await (const value of readAhead(source(), read)) {
      await expect.poll(() => taken.length).toBe(Math.min(seen.length + 2, 10))
      seen.push(value)
      if (seen.length === 4) break
    }
    expect(seen).toEqual(['v0', 'v1', 'v2', 'v3'])
    // item 4 was taken ahead while item 3 was worked on; nothing after it
    expect(taken).toEqual([0, 1, 2, 3, 4])
    expect(stopped).toBe(true)
  })

  it('throws a failed read in its turn, after the items before it, and starts no read past it', async () => {
    const r = gatedReads()
    const seen: string[] = []
    const consumer = (async () => {
      for await (const value of readAhead([0, 1, 2, 3, 4, 5], r.read)) {
        seen.push(value)
        // item 2's read fails while item 1 is worked on: nothing is thrown until item 2's turn
        if (value === 'v1') r.gates.get(2)!.reject(new Error('connection lost'))
        else r.gates.get(seen.length)!.resolve(`v${seen.length}`)
        await expect.poll(() => r.running()).toBe(0)
      }
    })()
    await expect.poll(() => r.started.length).toBe(1)
    r.gates.get(0)!.resolve('v0')
    await expect(consumer).rejects.toThrow('connection lost')
    expect(seen).toEqual(['v0', 'v1'])
    expect(r.started).toEqual([0, 1, 2])
  })

  it('waits for the read in flight when the caller stops early, so none outlives it', async () => {
    const r = gatedReads()
    const consumer = (async () => {
      for await (const value of readAhead([0, 1, 2], r.read)) {
        if (value === 'v0') throw new Error('store failed')
      }
    })()
    await expect.poll(() => r.started.length).toBe(1)
    r.gates.get(0)!.resolve('v0')
    let settled = false
    void consumer.catch(() => {}).finally(() => { settled = true })
    // item 1 is being read: the caller's failure waits for that read to end
    await expect.poll(() => r.started).toEqual([0, 1])
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(false)
    r.gates.get(1)!.reject(new Error('cut'))
    await expect(consumer).rejects.toThrow('store failed')
    expect(r.started).toEqual([0, 1])
    expect(r.running()).toBe(0)
  })
})
