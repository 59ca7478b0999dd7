import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { hitRateLimit, releaseRateLimit, reserveSpacedAttempt } from './rate-limits.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

const spacing = { freeAttempts: 2, firstWaitSeconds: 1, maxWaitSeconds: 8, forgetSeconds: 900 }
const waitOf = async (key: string) =>
  (await db.sql`select extract(epoch from next_allowed_at - last_action)::float8 as wait from rate_limits where action_type = 'spaced' and key = ${key}`)[0].wait as number
/** Moves the key's wait into the past, as if it had been waited out. */
const waitOut = (key: string) => db.sql`update rate_limits set next_allowed_at = now() - interval '1 millisecond' where action_type = 'spaced' and key = ${key}`

describe('rate limits', () => {
  it('lets exactly the limit of 100 concurrent attempts through a fixed window, and gives back released ones', async () => {
    const hits = await Promise.all(Array.from({ length: 100 }, () => hitRateLimit(db.sql, 'fixed', 'k1', 7, 900)))
    expect(hits.filter((h) => h.allowed)).toHaveLength(7)
    const [row] = await db.sql`select count, extract(epoch from expires_at - window_start)::int as window from rate_limits where action_type = 'fixed' and key = 'k1'`
    expect(row).toEqual({ count: 100, window: 900 })
    await releaseRateLimit(db.sql, 'fixed', 'k1')
    expect((await db.sql`select count from rate_limits where action_type = 'fixed' and key = 'k1'`)[0].count).toBe(99)
  })

  it('lets exactly the free attempts of 100 concurrent ones through, and refused ones do not count', async () => {
    const hits = await Promise.all(Array.from({ length: 100 }, () => reserveSpacedAttempt(db.sql, 'spaced', 'k2', spacing)))
    expect(hits.filter((h) => h.allowed)).toHaveLength(2)
    expect(hits.filter((h) => !h.allowed).every((h) => h.resetTime.getTime() > Date.now() - 60_000)).toBe(true)
    expect((await db.sql`select count from rate_limits where action_type = 'spaced' and key = 'k2'`)[0].count).toBe(2)
  })

  it('doubles the wait after the free attempts up to the longest, and forgets after the wait plus the window', async () => {
    const waits: number[] = []
    for (let i = 0; i < 7; i++) {
      expect((await reserveSpacedAttempt(db.sql, 'spaced', 'k3', spacing)).allowed).toBe(true)
      waits.push(await waitOf('k3'))
      if (waits[i] > 0) {
        const refused = await reserveSpacedAttempt(db.sql, 'spaced', 'k3', spacing)
        expect(refused).toMatchObject({ allowed: false, count: i + 1 })
        await waitOut('k3')
      }
    }
    expect(waits).toEqual([0, 1, 2, 4, 8, 8, 8])
    const [row] = await db.sql`select extract(epoch from expires_at - last_action)::int as forget from rate_limits where action_type = 'spaced' and key = 'k3'`
    expect(row.forget).toBe(8 + 900) // the last wait, then the window
    await db.sql`update rate_limits set expires_at = now() - interval '1 second' where action_type = 'spaced' and key = 'k3'`
    const fresh = await reserveSpacedAttempt(db.sql, 'spaced', 'k3', spacing)
    expect(fresh).toMatchObject({ allowed: true, count: 1 })
  })
})
