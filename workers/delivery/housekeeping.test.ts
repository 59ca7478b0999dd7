import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../scripts/testing/test-database.ts'
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

  it('purges finished outgoing mail records after 30 days and keeps the rest', async () => {
    const [user] = await db.sql`insert into users (email, auth_method) values ('hk-jobs@example.com', 'email') returning id`
    const job = (recipient: string, status: string, finishedDaysAgo: number) =>
      db.sql`insert into email_jobs (user_id, source, recipient_email, status, created_at, updated_at)
             values (${user.id}, 'compose', ${recipient}, ${status}, now() - make_interval(days => ${finishedDaysAgo + 1}::int), now() - make_interval(days => ${finishedDaysAgo}::int))`
    await job('old-sent@example.org', 'sent', 31)
    await job('old-failed@example.org', 'failed', 31)
    await job('old-cancelled@example.org', 'cancelled', 31)
    await job('recent-sent@example.org', 'sent', 29)
    await job('old-but-retrying@example.org', 'retrying', 31)
    await job('old-but-pending@example.org', 'pending', 31)
    await housekeeping(db.sql)
    const left = await db.sql`select recipient_email from email_jobs where user_id = ${user.id} order by recipient_email`
    expect(left.map((r) => r.recipientEmail)).toEqual(['old-but-pending@example.org', 'old-but-retrying@example.org', 'recent-sent@example.org'])
  })

  it('forgets a spent unsubscribe or block link once the link has expired, and keeps the record of a live one', async () => {
    await db.sql`insert into link_token_uses (token_hash, expires_at) values (${Buffer.from('expired link')}, now() - interval '1 minute'), (${Buffer.from('live link')}, now() + interval '90 days')`
    await housekeeping(db.sql)
    expect((await db.sql`select token_hash from link_token_uses`).map((r) => Buffer.from(r.tokenHash).toString())).toEqual(['live link'])
  })

  it('deletes a rate-limit record, with its address, as soon as its window has passed', async () => {
    const { hitRateLimit, reserveSpacedAttempt } = await import('../../db/rate-limits.ts')
    await hitRateLimit(db.sql, 'login-ip', '203.0.113.77', 5, 900)
    await reserveSpacedAttempt(db.sql, 'login-account', 'owner@example.com', { freeAttempts: 3, firstWaitSeconds: 1, maxWaitSeconds: 60, forgetSeconds: 900 })
    await housekeeping(db.sql)
    expect((await db.sql`select key from rate_limits where key in ('203.0.113.77', 'owner@example.com') order by key`).map((r) => r.key)).toEqual(['203.0.113.77', 'owner@example.com'])
    // one minute after the window ends: gone (no 24 h grace)
    await db.sql`update rate_limits set window_start = window_start - interval '16 minutes', expires_at = expires_at - interval '16 minutes', last_action = last_action - interval '16 minutes'`
    await housekeeping(db.sql)
    expect(await db.sql`select key from rate_limits where key in ('203.0.113.77', 'owner@example.com')`).toHaveLength(0)
  })
})
