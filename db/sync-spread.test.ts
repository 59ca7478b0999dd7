// The sync schedule spreads accounts over the interval (issue 32): each account has its own moment
// in every SYNC_INTERVAL_SECONDS, from a stable hash of its id, so accounts added (or synced)
// together come due one after another across the interval instead of all in the same tick.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { dueProviderIds, insertEmailProvider } from './email-providers.ts'
import { insertSyncJob } from './mailbox-sync-jobs.ts'

const ACCOUNTS = 400
const INTERVAL = 1000

let db: TestDatabase
let userId: string
const ids: string[] = []
beforeAll(async () => {
  db = await createTestDatabase()
  const [user] = await db.sql<{ id: string }[]>`insert into users (email, auth_method) values ('spread@example.com', 'email') returning id`
  userId = user.id
  for (let i = 0; i < ACCOUNTS; i++) {
    const id = randomUUID()
    ids.push(id)
    await insertEmailProvider(db.sql, { id, userId, provider: 'other', email: `box${i}@example.com`, credentials: Buffer.from('sealed') })
  }
})
afterAll(() => db?.drop())

/** Every account last synced `secondsAgo` ago, all at the same moment: the ones due now. */
async function dueWhenAllSynced(secondsAgo: number): Promise<string[]> {
  await db.sql`update email_providers set state = 'idle', last_sync_at = now() - make_interval(secs => ${secondsAgo}) where user_id = ${userId}`
  return dueProviderIds(db.sql, INTERVAL, ACCOUNTS * 2)
}

describe('the sync schedule\'s spread', () => {
  it('makes accounts synced together due one after another across the interval, each at a stable moment', async () => {
    // synced a whole interval ago or more: every account's moment has come
    expect(await dueWhenAllSynced(INTERVAL + 1)).toHaveLength(ACCOUNTS)
    // a quarter, half, three quarters of the interval later: about that share of them (± 10 standard
    // deviations of a binomial draw of 400 is still far from 0 and from all)
    const quarter = await dueWhenAllSynced(INTERVAL / 4)
    const half = await dueWhenAllSynced(INTERVAL / 2)
    const threeQuarters = await dueWhenAllSynced((3 * INTERVAL) / 4)
    expect(quarter.length).toBeGreaterThan(ACCOUNTS * 0.05)
    expect(quarter.length).toBeLessThan(ACCOUNTS * 0.45)
    expect(half.length).toBeGreaterThan(ACCOUNTS * 0.25)
    expect(half.length).toBeLessThan(ACCOUNTS * 0.75)
    expect(threeQuarters.length).toBeGreaterThan(ACCOUNTS * 0.55)
    // an account's moment does not change: those due after a quarter are due after half and three quarters
    expect(quarter.every((id) => half.includes(id))).toBe(true)
    expect(half.every((id) => threeQuarters.includes(id))).toBe(true)
    // just synced: next to none (the hash would have to land in the last second of the interval)
    expect((await dueWhenAllSynced(0)).length).toBeLessThan(ACCOUNTS * 0.02)
  })

  it('leaves an account whose sync is queued or running to it, and never-synced accounts come first', async () => {
    const due = await dueWhenAllSynced(INTERVAL + 1)
    expect(due).toHaveLength(ACCOUNTS)
    await insertSyncJob(db.sql, randomUUID(), userId, ids[0])
    await db.sql`update email_providers set last_sync_at = null where id = ${ids[1]}`
    const now = await dueProviderIds(db.sql, INTERVAL, ACCOUNTS * 2)
    expect(now).not.toContain(ids[0])
    expect(now[0]).toBe(ids[1])
    expect(now).toHaveLength(ACCOUNTS - 1)
  })
})
