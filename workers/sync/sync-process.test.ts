// Real `sync` processes against a private Dovecot: one killed half-way through an initial sync
// resumes from the last stored UID; two running at once never sync one account at the same time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listProviderOverview } from '../../db/email-providers.ts'
import { queues } from '../../db/queues.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { syncProcesses, type SyncProcesses } from '../../scripts/testing/sync-processes.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

const run = dovecotAvailable()
const HOLD = 4_246_001 // advisory lock key the test holds to stop an insert half-way

describe.skipIf(!run)('sync processes', () => {
  let dovecot: Dovecot
  let t: TestApp
  let processes: SyncProcesses
  let user: ApiClient
  beforeAll(async () => {
    dovecot = await startDovecot()
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true' })
    processes = await syncProcesses(t, dovecot.caFile)
    user = new ApiClient(t.app)
    await user.register()
  })
  afterAll(async () => {
    await processes?.close()
    await t?.close()
    await dovecot?.stop()
  })

  /**
   * An account of `count` messages whose first sync a sync process started and was SIGKILLed in,
   * half-way: the insert of UID 101 waits on a lock this test holds, so batches 1–50 and 51–100 are
   * committed; the hold is lifted once the process is gone.
   */
  async function killedHalfWay(login: string, count: number) {
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: count }, (_, i) => ({ raw: sampleMail(i).raw })))
    await t.db.sql.unsafe(`
      create function test_hold_insert() returns trigger language plpgsql as $$
      begin if new.uid > 100 then perform pg_advisory_xact_lock_shared(${HOLD}); end if; return new; end $$;
      create trigger test_hold_insert before insert on received_emails for each row execute function test_hold_insert();`)
    const holder = await t.db.sql.reserve()
    await holder`select pg_advisory_lock(${HOLD})`
    const account = await addImapAccount(user, dovecot, login, password)
    const first = processes.start()
    await expect.poll(async () => (await t.db.sql`select 1 from pg_locks where locktype = 'advisory' and objid = ${HOLD} and not granted`).length, { timeout: 60_000 }).toBe(1)
    const exited = new Promise((resolve) => first.once('exit', resolve))
    first.kill('SIGKILL')
    await exited
    await holder`select pg_advisory_unlock(${HOLD})`
    holder.release()
    await t.db.sql.unsafe('drop trigger test_hold_insert on received_emails; drop function test_hold_insert()')
    return account
  }

  it('resumes a sync killed half-way from the last stored UID, not from zero', async () => {
    const { providerId, jobId } = await killedHalfWay('killed@example.test', 200)

    const before = await t.db.sql<{ id: string; uid: number }[]>`select id, uid::float8 as uid from received_emails where provider_id = ${providerId} order by uid`
    expect(before.map((r) => r.uid)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    const [folder] = await t.db.sql`select last_uid::int from mailbox_folders where provider_id = ${providerId} and path = 'INBOX'`
    expect(folder.lastUid).toBe(100)
    expect((await user.json(user.get(`/api/email-providers/${providerId}/sync-jobs/${jobId}`))).body.status).toBe('running')

    processes.start()
    const again = await user.json(user.post(`/api/email-providers/${providerId}/sync`))
    const job = await syncJobFinished(user, providerId, again.body.jobId, 90_000)
    expect(job.status).toBe('done')
    // Only what was left was fetched (UIDs 101–200), by this sync or by the killed one taken over
    // once its lease lapsed (a later one finds nothing left): the runs after the kill add up to 100.
    const [resumed] = await t.db.sql`select sum(fetched_count)::int as fetched from mailbox_sync_jobs where provider_id = ${providerId}`
    expect(resumed.fetched).toBe(100)
    const after = await t.db.sql<{ id: string; uid: number }[]>`select id, uid::float8 as uid from received_emails where provider_id = ${providerId} order by uid`
    expect(after.map((r) => r.uid)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
    expect(after.slice(0, 100).map((r) => r.id)).toEqual(before.map((r) => r.id))
  }, 240_000)

  it('runs a sync whose process died again by itself after its heartbeat lapses, not after its retry delay, and no second sync is queued', async () => {
    // no process of an earlier test is left to take the job
    await processes.close()
    processes = await syncProcesses(t, dovecot.caFile)
    // a retry delay of an hour: only the lost-job sweep of the sync process brings the job back in this test
    await t.boss.updateQueue(queues.syncMailbox.name, { retryDelay: 3600, retryBackoff: false })
    try {
      const { providerId, jobId } = await killedHalfWay('orphaned@example.test', 120)
      // meanwhile the account says it is syncing, and the operator sees that nothing runs it
      const overview = async () => (await listProviderOverview(t.db.sql, 100)).find((r) => r.id === providerId)
      await expect.poll(async () => (await overview())?.stalled, { timeout: 30_000, interval: 200 }).toBe(true)
      expect(await overview()).toMatchObject({ state: 'syncing', progressTotal: 120 })
      // and so does its owner's settings page
      const view = async () => ((await user.json(user.get('/api/email-providers'))).body.providers as { id: string; state: string; stalled: boolean }[]).find((p) => p.id === providerId)
      expect(await view()).toMatchObject({ state: 'syncing', stalled: true })

      processes.start()
      // the same job, taken up again once its heartbeat lapsed; nobody pressed Sync
      expect(await syncJobFinished(user, providerId, jobId, 150_000)).toMatchObject({ status: 'done' })
      const [job] = await t.db.sql`select retry_count from pgboss.job where id = ${jobId}`
      expect(job.retryCount).toBe(1)
      expect((await t.db.sql`select id from mailbox_sync_jobs where provider_id = ${providerId}`).map((r) => r.id)).toEqual([jobId])
      const [{ count }] = await t.db.sql`select count(distinct uid)::int from received_emails where provider_id = ${providerId}`
      expect(count).toBe(120)
      expect(await overview()).toMatchObject({ state: 'idle', stalled: false, messages: 120 })
      expect(await view()).toMatchObject({ state: 'idle', stalled: false })
    } finally {
      await t.boss.updateQueue(queues.syncMailbox.name, { retryDelay: queues.syncMailbox.retryDelay, retryBackoff: queues.syncMailbox.retryBackoff })
    }
  }, 240_000)

  it('never runs two syncs of one account at once, whatever the number of sync processes', async () => {
    processes.start()
    processes.start()
    const accounts = []
    for (const name of ['one', 'two']) {
      const login = `${name}@parallel.test`
      const password = dovecot.addUser(login)
      dovecot.writeMessages(login, Array.from({ length: 150 }, (_, i) => ({ raw: sampleMail(i, 4000).raw })))
      accounts.push(await addImapAccount(user, dovecot, login, password))
    }
    // New mail, then Sync pressed, again and again while syncs run, from both accounts. A press
    // while a sync waits gets that sync, which then starts after the mail is there.
    const jobs = new Set<string>()
    for (let round = 0; round < 12; round++) {
      for (const { providerId } of accounts) {
        dovecot.writeMessages(`${providerId === accounts[0].providerId ? 'one' : 'two'}@parallel.test`, [{ raw: sampleMail(500 + round).raw }])
        const res = await user.json(user.post(`/api/email-providers/${providerId}/sync`))
        jobs.add(res.body.jobId)
      }
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
    for (const { providerId } of accounts) {
      await expect.poll(async () => (await t.db.sql`select 1 from mailbox_sync_jobs where provider_id = ${providerId} and status in ('queued', 'running')`).length, { timeout: 120_000, interval: 250 }).toBe(0)
      const runs = await t.db.sql<{ startedAt: Date; finishedAt: Date }[]>`
        select started_at, finished_at from mailbox_sync_jobs where provider_id = ${providerId} and status = 'done' order by started_at`
      expect(runs.length).toBeGreaterThan(1)
      for (let i = 1; i < runs.length; i++) expect(runs[i].startedAt.getTime()).toBeGreaterThanOrEqual(runs[i - 1].finishedAt.getTime())
      const [{ count, distinct }] = await t.db.sql`select count(*)::int, count(distinct uid)::int as distinct from received_emails where provider_id = ${providerId}`
      expect(count).toBe(162)
      expect(distinct).toBe(162)
    }
  }, 240_000)
})
