// The schedule's backoff for an account whose syncs keep giving up (a server that is down, or one
// that goes over the sync's limits every time): SYNC_INTERVAL_SECONDS doubled for each sync in a
// row that gave up, counted from the last of them, at most six hours; a sync that succeeds ends it.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { dueProviderIds, insertEmailProvider, markProviderError, markProviderIdle } from './email-providers.ts'

let db: TestDatabase
let id: string
beforeAll(async () => {
  db = await createTestDatabase()
  const [user] = await db.sql<{ id: string }[]>`insert into users (email, auth_method) values ('backoff@example.com', 'email') returning id`
  id = randomUUID()
  await insertEmailProvider(db.sql, { id, userId: user.id, provider: 'other', email: 'box@example.com', credentials: Buffer.from('sealed') })
  await db.sql`update email_providers set state = 'idle', last_sync_at = now() - interval '1 day' where id = ${id}`
})
afterAll(() => db?.drop())

/** Due with a 60 s interval when the last sync that gave up was `secondsAgo` ago. */
async function dueAfter(secondsAgo: number): Promise<boolean> {
  await db.sql`update email_providers set sync_failed_at = now() - make_interval(secs => ${secondsAgo}) where id = ${id}`
  return (await dueProviderIds(db.sql, 60, 100)).includes(id)
}

describe('the sync schedule\'s backoff', () => {
  it('waits the interval doubled per sync that gave up, from the last of them; retries within a job do not count', async () => {
    expect(await dueAfter(0)).toBe(true)
    // a failed attempt that will be retried by its job: not a sync that gave up
    await markProviderError(db.sql, id, 'The mail server did not answer in time. It will be tried again.', false)
    expect(await dueAfter(0)).toBe(true)
    await markProviderError(db.sql, id, 'The mail server took too long to answer.', false, true)
    expect(await dueAfter(100)).toBe(false)
    expect(await dueAfter(130)).toBe(true)
    await markProviderError(db.sql, id, 'The mail server took too long to answer.', false, true)
    await markProviderError(db.sql, id, 'The mail server took too long to answer.', false, true)
    expect(await dueAfter(400)).toBe(false)
    expect(await dueAfter(500)).toBe(true)
  })

  it('never waits longer than six hours, and a sync that succeeds ends the backoff', async () => {
    for (let i = 0; i < 30; i++) await markProviderError(db.sql, id, 'The mail server took too long to answer.', false, true)
    expect(await dueAfter(6 * 3600 - 60)).toBe(false)
    expect(await dueAfter(6 * 3600 + 60)).toBe(true)
    await markProviderIdle(db.sql, id)
    await db.sql`update email_providers set last_sync_at = now() - interval '1 day' where id = ${id}`
    expect((await dueProviderIds(db.sql, 60, 100)).includes(id)).toBe(true)
    const [row] = await db.sql<{ syncFailures: number }[]>`select sync_failures from email_providers where id = ${id}`
    expect(row.syncFailures).toBe(0)
  })
})
