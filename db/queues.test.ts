import * as v from 'valibot'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from './client.ts'
import { createTestDatabase, type TestDatabase } from '../scripts/testing/test-database.ts'
import { wakeWhenDue } from './queue-due.ts'
import { allQueues, createBoss, createQueues, deadLetterName, defineQueue, enqueue, work } from './queues.ts'

const probe = defineQueue({
  name: 'test-probe',
  schema: v.object({ userId: v.pipe(v.string(), v.uuid()) }),
  retryLimit: 0,
  retryDelay: 1,
  retryBackoff: false,
  expireInSeconds: 30,
})

let db: TestDatabase
let boss: PgBoss
beforeAll(async () => {
  db = await createTestDatabase()
  boss = createBoss(db.url, { max: 3, maintenance: false })
  await boss.start()
  await createQueues(boss, [probe])
})
afterAll(async () => {
  await boss.stop({ graceful: false })
  await db.drop()
})

const jobsFor = (userId: string) =>
  db.sql`select id from pgboss.job where name = ${probe.name} and data->>'userId' = ${userId}`

async function insertUser(tx: Db) {
  const [user] = await tx<{ id: string }[]>`insert into users (email, auth_method) values (${`q${Math.random()}@example.com`}, 'email') returning id`
  return user.id
}

describe('enqueue inside a transaction', () => {
  it('rolls back the row and the job together', async () => {
    let userId = ''
    await expect(db.sql.begin(async (tx) => {
      userId = await insertUser(tx)
      await enqueue(tx, boss, probe, { userId })
      throw new Error('abort')
    })).rejects.toThrow('abort')
    expect(userId).not.toBe('')
    expect(await db.sql`select id from users where id = ${userId}`).toHaveLength(0)
    expect(await jobsFor(userId)).toHaveLength(0)
  })

  it('commits the row and the job together', async () => {
    const userId = await db.sql.begin(async (tx) => {
      const id = await insertUser(tx)
      await enqueue(tx, boss, probe, { userId: id })
      return id
    })
    expect(await db.sql`select id from users where id = ${userId}`).toHaveLength(1)
    expect(await jobsFor(userId)).toHaveLength(1)
  })

  it('refuses a payload that does not match the queue schema', async () => {
    await expect(enqueue(db.sql, boss, probe, { userId: 'not-a-uuid' })).rejects.toThrow()
  })
})

describe('work', () => {
  it('hands a worker the parsed payload and sends invalid payloads to the dead-letter queue', async () => {
    const seen: unknown[] = []
    const userId = await insertUser(db.sql)
    const done = new Promise<void>((resolve) => {
      void work(boss, probe, async (payload) => {
        seen.push(payload)
        if (payload.userId === userId) resolve()
      }, { pollSeconds: 1 })
    })
    // bypass enqueue()'s validation to simulate an untrusted payload
    const badId = await boss.send(probe.name, { userId: 42 })
    await enqueue(db.sql, boss, probe, { userId })
    await done
    expect(seen).toContainEqual({ userId })
    expect(seen).not.toContainEqual({ userId: 42 })
    await expect.poll(async () => (await boss.findJobs(deadLetterName(probe))).length, { timeout: 10_000 }).toBe(1)
    const [bad] = await db.sql<{ state: string }[]>`select state from pgboss.job where id = ${badId!}`
    expect(bad.state).toBe('failed')
  })
})

describe('a backlog', () => {
  // The jobs exist before any worker runs, so no NOTIFY announces them; with an idle poll of ten
  // minutes, only fetching again while fetches come back full can drain them within the test.
  const drain = async (name: string, options: { concurrency: number; batchSize?: number }) => {
    const queue = defineQueue({ ...probe, name, retryLimit: 2 })
    await createQueues(boss, [queue])
    const userId = crypto.randomUUID()
    await db.sql.begin(async (tx) => {
      for (let i = 0; i < 500; i++) await enqueue(tx, boss, queue, { userId })
    })
    let running = 0
    let most = 0
    const done = new Set<string>()
    await work(boss, queue, async (_payload, ctx) => {
      most = Math.max(most, ++running)
      await new Promise((resolve) => setTimeout(resolve, 2))
      running--
      done.add(ctx.jobId)
    }, { ...options, pollSeconds: 600 })
    try {
      await expect.poll(() => done.size, { timeout: 60_000, interval: 100 }).toBe(500)
      await expect.poll(async () => (await db.sql`select count(*)::int as n from pgboss.job where name = ${name} and state = 'completed'`)[0].n, { timeout: 10_000 }).toBe(500)
      expect(most).toBeLessThanOrEqual(options.concurrency)
    } finally {
      await boss.offWork(name)
    }
  }

  it('of 500 due jobs drains at once with single-job fetches, never more than the concurrency at a time', () => drain('test-drain', { concurrency: 8 }), 90_000)
  it('of 500 due jobs drains at once with batched fetches', () => drain('test-drain-batch', { concurrency: 8, batchSize: 4 }), 90_000)
})

describe('retries', () => {
  it('back off exponentially up to a cap on every queue that backs off (as Postfix maximal_backoff_time)', async () => {
    for (const queue of allQueues.filter((q) => q.retryBackoff)) {
      expect(queue.retryDelayMax, queue.name).toBeGreaterThan(0)
      expect(queue.retryDelayMax!, queue.name).toBeLessThanOrEqual(5 * 3600)
    }
    const capped = defineQueue({ ...probe, name: 'test-capped', retryLimit: 30, retryDelay: 30, retryBackoff: true, retryDelayMax: 120 })
    await createQueues(boss, [capped])
    const id = await enqueue(db.sql, boss, capped, { userId: crypto.randomUUID() })
    await db.sql`update pgboss.job set retry_count = 14 where id = ${id}` // the fifteenth failure: 30 s × 2^15 uncapped
    const [job] = await boss.fetch(capped.name)
    await boss.fail(capped.name, job.id, { error: 'test' })
    const [row] = await db.sql<{ state: string; wait: number }[]>`select state, extract(epoch from start_after - now())::float as wait from pgboss.job where id = ${id}`
    expect(row.state).toBe('retry')
    expect(row.wait).toBeGreaterThan(60)
    expect(row.wait).toBeLessThanOrEqual(120)
  })
})

describe('delayed jobs', () => {
  const later = defineQueue({ ...probe, name: 'test-later' })

  it('wake their workers when they come due, not at the next idle poll', async () => {
    await createQueues(boss, [later])
    const started: number[] = []
    const ids = await work(boss, later, async () => void started.push(Date.now()), { pollSeconds: 60 })
    const stop = await wakeWhenDue(db.sql, boss, { [later.name]: ids })
    try {
      // due after the worker's first idle fetch and long before its next poll (60 s): only the
      // wake-up can run it within the ten seconds waited here
      const due = Date.now() + 1500
      await db.sql.begin((tx) => enqueue(tx, boss, later, { userId: crypto.randomUUID() }, { startAfter: new Date(due) }))
      await expect.poll(() => started.length, { timeout: 10_000, interval: 50 }).toBe(1)
      expect(started[0]).toBeGreaterThanOrEqual(due)
    } finally {
      await stop()
    }
  })
})

describe("pg-boss's own statements", () => {
  it('are prepared once per connection when they take parameters (the complete), and planned on each run when all literal (the fetch)', async () => {
    // one connection, so the statement below runs where the fetches ran
    const queue = defineQueue({ ...probe, name: 'test-prepared' })
    await createQueues(boss, [queue])
    const single = createBoss(db.url, { max: 1, maintenance: false })
    await single.start()
    try {
      for (let i = 0; i < 3; i++) {
        await enqueue(db.sql, boss, queue, { userId: crypto.randomUUID() })
        const jobs = await single.fetch(queue.name)
        expect(jobs).toHaveLength(1)
        await single.complete(queue.name, jobs[0].id)
      }
      const { rows } = await single.getDb().executeSql('select statement from pg_prepared_statements')
      const prepared = rows.map((r: { statement: string }) => r.statement)
      expect(prepared.some((s) => /set\s+completed_on/i.test(s))).toBe(true) // the complete
      // the fetch names its queue inline: a plan kept from when the table was empty would stay
      expect(prepared.some((s) => /with\s+next\s+as/i.test(s))).toBe(false)
    } finally {
      await single.stop({ graceful: false })
    }
  })
})

describe('a finished batch', () => {
  it('is completed by id: the job table is not scanned whole for it', async () => {
    // a database of its own: a backend flushes its table statistics up to ten seconds after its
    // statements ran, so a scan an earlier test made here could land between the two counts
    const own = await createTestDatabase()
    // one connection: the statistics it flushes are those of every statement the worker ran
    const single = createBoss(own.url, { max: 1, maintenance: false })
    await single.start()
    const queue = defineQueue({ ...probe, name: 'test-complete-by-id' })
    await createQueues(single, [queue])
    // the test's own reads of the job table go by index, never by a scan counted against the worker
    const reader = await own.sql.reserve()
    await reader`set enable_seqscan = off`
    const seqScans = async () => {
      await single.getDb().executeSql('select pg_stat_force_next_flush()')
      await reader`select pg_stat_force_next_flush()`
      await own.sql`select pg_stat_clear_snapshot()`
      const [row] = await own.sql<{ n: number }[]>`select seq_scan::int as n from pg_stat_user_tables where schemaname = 'pgboss' and relname = 'job_common'`
      return row.n
    }
    try {
      // the queue's completed jobs, as a week of mail leaves them: scanning them is what a complete must not do
      await own.sql`insert into pgboss.job_common (name, state, completed_on, data) select ${queue.name}, 'completed', now(), '{}' from generate_series(1, 2000)`
      await own.sql`analyze pgboss.job_common`
      await own.sql.begin(async (tx) => {
        for (let i = 0; i < 40; i++) await enqueue(tx, single, queue, { userId: crypto.randomUUID() })
      })
      const before = await seqScans()
      let done = 0
      await work(single, queue, async () => { done++ }, { concurrency: 8, batchSize: 4, pollSeconds: 1 })
      await expect.poll(() => done).toBe(40)
      await expect.poll(async () => (await reader`select count(*)::int as n from pgboss.job where name = ${queue.name} and state = 'completed'`)[0].n).toBe(2040)
      await single.offWork(queue.name)
      expect(await seqScans()).toBe(before)
    } finally {
      reader.release()
      await single.stop({ graceful: false })
      await own.drop()
    }
  })
})
