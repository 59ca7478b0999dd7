import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { housekeeping } from './housekeeping.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

describe('housekeeping', () => {
  it('deletes expired sessions, old nonces and stale rate-limit windows, and keeps live ones', async () => {
    const [user] = await db.sql`insert into users (email, auth_method) values ('hk@example.com', 'email') returning id`
    await db.sql`insert into sessions (user_id, token_hash, expires_at) values
      (${user.id}, ${Buffer.from('expired')}, now() - interval '1 minute'), (${user.id}, ${Buffer.from('live')}, now() + interval '1 day')`
    await db.sql`insert into wallet_nonces (nonce, wallet_address, expires_at) values
      ('old', 'w', now() - interval '2 days'), ('fresh', 'w', now() + interval '5 minutes')`
    await db.sql`insert into rate_limits (action_type, key, count, window_start, last_action, expires_at) values
      ('login-ip', 'stale', 3, now() - interval '3 days', now() - interval '3 days', now() - interval '3 days'), ('login-ip', 'recent', 1, now(), now(), now() + interval '15 minutes')`
    await housekeeping(db.sql)
    expect((await db.sql`select token_hash from sessions`).map((r) => Buffer.from(r.tokenHash).toString())).toEqual(['live'])
    expect((await db.sql`select nonce from wallet_nonces`).map((r) => r.nonce)).toEqual(['fresh'])
    expect((await db.sql`select key from rate_limits`).map((r) => r.key)).toEqual(['recent'])
  })

  it('purges undelivered mail past its 30 days and keeps the rest', async () => {
    const [user] = await db.sql`insert into users (email, auth_method) values ('hk-mail@example.com', 'email') returning id`
    const [alias] = await db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, 'hk', 'veilmail.test', 'me@example.com') returning id`
    await db.sql`insert into undelivered_messages (user_id, alias_id, target, reason, encrypted, created_at, expires_at) values
      (${user.id}, ${alias.id}, 'me@example.com', 'expired', 'armored', now() - interval '31 days', now() - interval '1 day'),
      (${user.id}, ${alias.id}, 'me@example.com', 'fresh', 'armored', now(), default)`
    await housekeeping(db.sql)
    const left = await db.sql`select reason, expires_at > now() + interval '29 days' as thirty_days from undelivered_messages`
    expect(left.map((r) => [r.reason, r.thirtyDays])).toEqual([['fresh', true]])
  })
})
