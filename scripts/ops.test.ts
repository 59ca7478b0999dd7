// `npm run ops` as an operator runs it: each command a real subprocess against a real database
// with real queue jobs (mail through the MX, pg-boss states reached through pg-boss itself).
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertEmailJob } from '../db/email-jobs.ts'
import { getProviderForSync, insertEmailProvider } from '../db/email-providers.ts'
import { insertUndeliveredMessage } from '../db/undelivered-messages.ts'
import { startHeartbeat } from '../db/heartbeat.ts'
import { enqueue, queues } from '../db/queues.ts'
import { sealCredentials } from '../lib/mailbox-credentials.ts'
import { requestSync } from '../db/sync-requests.ts'
import { startSyncWorker } from '../workers/sync/sync-worker.ts'
import { dovecotAvailable, startDovecot } from './testing/dovecot.ts'
import { createMailEnv, type MailEnv, type TestAlias } from './testing/mail-env.ts'
import { TEST_SECRET_KEY } from './testing/test-app.ts'

const ROOT = path.join(import.meta.dirname, '..')
let env: MailEnv
let alias: TestAlias
const OWNER = 'owner-mailbox@outside.example'
const SUBJECT = 'a subject the operator must not see'

interface Run { code: number | null; stdout: string; stderr: string }

function ops(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['scripts/ops.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir, SECRET_KEY: TEST_SECRET_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

async function json(...args: string[]) {
  const run = await ops(...args, '--json')
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return JSON.parse(run.stdout)
}

const jobState = async (id: string) => (await env.db.sql<{ state: string; due: boolean }[]>`select state::text as state, start_after <= now() as due from pgboss.job where id = ${id}`)[0]

beforeAll(async () => {
  env = await createMailEnv({ worker: false })
  alias = await env.createAlias(OWNER)
  for (let i = 0; i < 2; i++) await env.send({ to: alias.address, subject: SUBJECT })
}, 60_000)
afterAll(() => env.close())

describe('npm run ops', () => {
  it('explains itself: --help and help <command> exit 0, a wrong command or option exits 2', async () => {
    const help = await ops('--help')
    expect(help.code).toBe(0)
    for (const name of ['health', 'queues', 'jobs', 'job', 'requeue', 'flush', 'cancel', 'dead-letters', 'email-job', 'spool', 'accounts']) expect(help.stdout).toContain(`  ${name} `)
    const one = await ops('help', 'requeue')
    expect(one.code).toBe(0)
    expect(one.stdout).toContain('requeue --queue <queue> --state failed|retry|cancelled')
    expect((await ops('jobs', '--help')).code).toBe(0)
    for (const args of [['frobnicate'], ['help', 'frobnicate'], ['jobs', 'forward-email', '--colour'], ['jobs', 'forward-email', '--state', 'stuck'], ['jobs', 'forward-email', '--limit', '0'],
      ['job', 'not-an-id'], ['requeue'], ['requeue', '--queue', 'forward-email'], ['cancel'], ['flush', 'a', 'b'], ['dead-letters', 'purge'], ['accounts', 'x'], ['accounts', '--limit', 'lots']]) {
      const run = await ops(...args)
      expect({ args, code: run.code }).toEqual({ args, code: 2 })
      expect(run.stderr).toMatch(/^ops: /)
    }
  }, 120_000)

  it('finds a deferred job, shows it without content or addresses, flushes it, and requeues and cancels by id', async () => {
    const before = await json('queues')
    expect(before.find((q: { queue: string }) => q.queue === 'forward-email').counts.created).toBe(2)
    const text = await ops('queues')
    expect(text.stdout).toMatch(/^queue\s+created\s+retry\s+active\s+failed\s+completed\s+cancelled\s+oldest due/m)
    expect(text.stdout).toMatch(/^forward-email\s+2\s+0\s+0\s+0\s+0\s+0\s+\d+s/m)

    // the relay refused one attempt: pg-boss defers the job (state retry, start time ahead)
    const [first] = await env.boss.fetch(queues.forwardEmail.name)
    await env.boss.fail(queues.forwardEmail.name, first.id, { error: `RelayRefused <${OWNER}>` })
    expect((await jobState(first.id)).state).toBe('retry')
    // the test env retries after 1 s; production's backoff puts the next try far ahead
    await env.db.sql`update pgboss.job set start_after = now() + interval '1 hour' where id = ${first.id}`
    expect(await jobState(first.id)).toEqual({ state: 'retry', due: false })

    const deferred = await json('jobs', 'forward-email', '--state', 'retry')
    expect(deferred).toHaveLength(1)
    expect(deferred[0]).toMatchObject({ id: first.id, state: 'retry', retryCount: 0, lastError: 'RelayRefused <<address>>' })
    const listed = await ops('jobs', 'forward-email')
    expect(listed.stdout).toContain(first.id)
    expect(listed.stdout).toMatch(new RegExp(`${first.id}\\s+retry\\s+0/20\\s+\\S+Z\\s+RelayRefused`))

    const detail = await ops('job', first.id)
    expect(detail.code).toBe(0)
    expect(detail.stdout).toMatch(/queue\s+forward-email/)
    expect(detail.stdout).toMatch(/belongs to\s+delivery=\S+ kind=email status=pending attempts=0/)
    const full = await json('job', first.id)
    expect(full.belongsTo).toMatchObject({ kind: 'email', status: 'pending', alias: alias.id })
    expect(Object.keys(full.data)).toEqual(['deliveryId'])
    for (const output of [listed.stdout, detail.stdout, JSON.stringify(full), JSON.stringify(deferred)]) {
      expect(output).not.toContain(OWNER)
      expect(output).not.toContain(alias.address)
      expect(output).not.toContain(SUBJECT)
    }

    // postqueue -f
    const flushed = await json('flush', 'forward-email')
    expect(flushed).toEqual({ flushed: 1, byQueue: { 'forward-email': 1 } })
    expect(await jobState(first.id)).toEqual({ state: 'retry', due: true })
    expect((await ops('flush')).stdout).toBe('flushed 0 deferred job(s)\n')

    // a job out of attempts (failed) runs again with `requeue <id>`; a waiting one is refused
    const id = await enqueue(env.db.sql, env.boss, queues.housekeeping, {}, { retryLimit: 0 })
    const [taken] = await env.boss.fetch(queues.housekeeping.name)
    expect(taken.id).toBe(id)
    await env.boss.fail(queues.housekeeping.name, id, { error: 'Boom' })
    expect((await jobState(id)).state).toBe('failed')
    const [waiting] = (await json('jobs', 'forward-email', '--state', 'created'))
    const refused = await ops('requeue', id, waiting.id)
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain('requeued 1 job(s)')
    expect(refused.stdout).toContain(`not requeued ${waiting.id}: it is created, not failed, deferred or cancelled`)
    expect(await jobState(id)).toEqual({ state: 'retry', due: true })

    // cancel holds a job; requeue brings it back; a job that does not exist fails the command
    expect(await json('cancel', waiting.id)).toEqual({ cancelled: [waiting.id], refused: [] })
    expect((await jobState(waiting.id)).state).toBe('cancelled')
    expect(await json('jobs', 'forward-email', '--state', 'cancelled', '--limit', '5')).toHaveLength(1)
    expect(await json('requeue', waiting.id)).toEqual({ requeued: [waiting.id], refused: [] })
    expect((await jobState(waiting.id)).state).toBe('created')
    const missing = randomUUID()
    expect((await ops('job', missing)).code).toBe(1)
    expect((await ops('cancel', missing)).stdout).toContain(`not cancelled ${missing}: no such job`)
    expect((await ops('jobs', 'no-such-queue')).stderr).toContain('ops: no queue named no-such-queue')
  }, 120_000)

  it('requeues a whole queue in one state, with progress on a terminal and none when piped', async () => {
    const failedCleanups = async (n: number) => {
      const ids: string[] = []
      for (let i = 0; i < n; i++) ids.push(await enqueue(env.db.sql, env.boss, queues.accountCleanup, { userId: randomUUID() }, { retryLimit: 0 }))
      for (const job of await env.boss.fetch(queues.accountCleanup.name, { batchSize: n })) await env.boss.fail(queues.accountCleanup.name, job.id, { error: 'Boom' })
      return ids
    }
    const piped = await failedCleanups(3)
    const run = await json('requeue', '--queue', 'account-cleanup', '--state', 'failed') // json() checks stderr is empty
    expect(run.requeued.sort()).toEqual(piped.sort())
    for (const id of piped) expect((await jobState(id)).state).toBe('retry')
    expect(await json('requeue', '--queue', 'account-cleanup', '--state', 'failed')).toEqual({ requeued: [], refused: [] })

    // on a terminal (script(1) gives the command a pseudo-terminal) the count shows as it goes
    await env.boss.cancel(queues.accountCleanup.name, piped) // out of the way of the next fetch
    const onTty = await failedCleanups(2)
    const tty = spawn('script', ['-qec', `${process.execPath} scripts/ops.ts requeue --queue account-cleanup --state failed`, '/dev/null'], {
      cwd: ROOT, env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: env.db.url, DATA_DIR: env.config.dataDir, SECRET_KEY: TEST_SECRET_KEY }, stdio: ['ignore', 'pipe', 'pipe'],
    })
    let seen = ''
    tty.stdout.on('data', (d) => (seen += d))
    expect(await new Promise((resolve) => tty.on('close', resolve))).toBe(0)
    expect(seen).toContain('\rrequeued 2/2')
    expect(seen).toContain('requeued 2 job(s)')
    for (const id of onTty) expect((await jobState(id)).state).toBe('retry')
  })

  it('shows the spool, an e-mail job and the dead letters, and requeues a dead letter', async () => {
    const spool = await json('spool')
    expect(spool).toMatchObject({ messages: 2, pendingDeliveries: 2 })
    expect(spool.bytes).toBeGreaterThan(0)
    expect((await ops('spool')).stdout).toMatch(/^messages\s+bytes\s+oldest\s+pending deliveries\n-+.*\n2\s+\d+\s+\S+Z \(\d+s\)\s+2$/m)

    const emailJobId = randomUUID()
    await insertEmailJob(env.db.sql, {
      id: emailJobId, userId: alias.userId, aliasId: alias.id, source: 'compose', recipientEmail: 'friend@outside.example', content: Buffer.from('sealed'),
      useEncryption: false, shareMyPublicKey: false, priority: 0, maxRetries: 5, scheduledAt: new Date(), undoUntil: new Date(),
    })
    const queueJob = await enqueue(env.db.sql, env.boss, queues.sendEmail, { emailJobId })
    const shown = await ops('email-job', emailJobId)
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/status\s+pending \(compose, priority 0\)/)
    expect(shown.stdout).toContain(`queue job   ${queueJob} created`)
    expect(shown.stdout).not.toContain('friend@outside.example')
    expect((await ops('email-job', randomUUID())).code).toBe(1)

    const kept = await insertUndeliveredMessage(env.db.sql, { userId: alias.userId, aliasId: alias.id, target: OWNER, reason: `550 no such user <${OWNER}>`, encrypted: '-----BEGIN AGE ENCRYPTED FILE-----', recipient: 'age1example' })
    const report = await insertUndeliveredMessage(env.db.sql, { userId: alias.userId, aliasId: alias.id, target: OWNER, reason: 'refused', encrypted: null, recipient: null })
    const listed = await json('dead-letters')
    expect(listed.map((r: { id: string }) => r.id)).toEqual([kept, report])
    expect(listed[0]).toMatchObject({ status: 'kept', kept: true, reason: '550 no such user <<address>>' })
    const table = await ops('dead-letters')
    expect(table.stdout).toContain(kept)
    expect(table.stdout).not.toContain(OWNER)

    expect(await json('dead-letters', 'requeue', kept)).toEqual({ requeued: [kept], refused: [] })
    expect((await json('dead-letters'))[0].status).toBe('retrying')
    const [retry] = await env.boss.findJobs(queues.retryUndelivered.name, { data: { undeliveredId: kept } })
    expect(retry.state).toBe('created')
    const again = await ops('dead-letters', 'requeue', kept, report)
    expect(again.code).toBe(1)
    expect(again.stdout).toContain(`not requeued ${kept}: it is already being sent again`)
    expect(again.stdout).toContain(`not requeued ${report}: no copy was kept, so it cannot be sent again`)
  }, 60_000)

  it('prints each process alive or not from the heartbeat table, and fails while one is down', async () => {
    const stops = ['web', 'mx', 'delivery'].map((name) => startHeartbeat(env.db.sql, name))
    await expect.poll(async () => (await env.db.sql`select count(*)::int as n from process_heartbeats`)[0].n).toBe(3)
    const down = await ops('health')
    expect(down.code).toBe(1)
    expect(down.stdout).toMatch(/^web\s+alive\s+1/m)
    expect(down.stdout).toMatch(/^submission\s+DOWN\s+0\s+-/m)
    expect(down.stdout).toMatch(/^sync\s+DOWN\s+0\s+-/m)
    expect(down.stderr).toBe('ops: not running: submission, sync\n')
    stops.push(startHeartbeat(env.db.sql, 'submission'), startHeartbeat(env.db.sql, 'sync'))
    await expect.poll(async () => (await env.db.sql`select count(*)::int as n from process_heartbeats`)[0].n).toBe(5)
    const up = await json('health')
    expect(Object.keys(up.processes)).toEqual(['web', 'mx', 'delivery', 'submission', 'sync'])
    expect(Object.values(up.processes).map((p) => (p as { alive: boolean }).alive)).toEqual([true, true, true, true, true])
    for (const stop of stops) await stop()
  }, 60_000)

  it.skipIf(!dovecotAvailable())('lists connected mailboxes synced from a real IMAP server: state, progress, last sync and error, stopped schedules, by domain not address', async () => {
    expect((await ops('accounts')).stdout).toBe('no connected mailboxes\n')
    expect(await json('accounts')).toEqual([])
    const dovecot = await startDovecot()
    const stopSync = await startSyncWorker(env.boss, { sql: env.db.sql, boss: env.boss, config: env.config, imapCa: dovecot.ca }, { concurrency: 2, intervalSeconds: 3600, pollSeconds: 1 })
    try {
      // as POST /api/email-providers does: the sealed row, then the first sync (the login is the check)
      const connect = async (email: string, password: string) => {
        const id = randomUUID()
        const credentials = sealCredentials(env.config, id, { email, password, host: dovecot.host, port: dovecot.port, secure: true })
        await insertEmailProvider(env.db.sql, { id, userId: alias.userId, provider: 'other', email, credentials })
        await requestSync(env.db.sql, env.boss, id)
        return id
      }
      const good = 'synced-owner@imap-good.example'
      const bad = 'locked-owner@imap-bad.example'
      dovecot.addUser(bad)
      dovecot.writeMessages(good, [0, 1, 2].map((i) => ({ raw: `From: a@b.example\r\nTo: ${good}\r\nSubject: ${SUBJECT} ${i}\r\nMessage-ID: <m${i}@b.example>\r\n\r\nbody ${i}\r\n` })))
      const goodId = await connect(good, dovecot.addUser(good))
      const badId = await connect(bad, 'not-the-password')
      await expect.poll(async () => [(await getProviderForSync(env.db.sql, goodId))?.state, (await getProviderForSync(env.db.sql, badId))?.state], { timeout: 60_000 }).toEqual(['idle', 'error'])
      const stored = (await getProviderForSync(env.db.sql, badId))!

      const listed = await json('accounts')
      // the one whose schedule stopped (login refused: the owner must fix it) first
      expect(listed).toEqual([
        { id: badId, userId: alias.userId, provider: 'other', domain: 'imap-bad.example', state: 'error', lastSyncAt: null, lastError: stored.lastError, messages: 0, progress: { done: 0, total: 0 }, stalled: false, scheduleStopped: true },
        { id: goodId, userId: alias.userId, provider: 'other', domain: 'imap-good.example', state: 'idle', lastSyncAt: expect.any(String), lastError: null, messages: 3, progress: { done: 3, total: 3 }, stalled: false, scheduleStopped: false },
      ])
      expect(stored.lastError).toMatch(/password/i)
      const table = await ops('accounts')
      expect(table.code).toBe(0)
      expect(table.stdout).toMatch(/^id\s+user\s+provider\s+domain\s+state\s+messages\s+last sync\s+schedule\s+last error/m)
      // an idle account shows what it holds, not the counts of its last incremental sync
      expect(table.stdout).toMatch(new RegExp(`^${badId}\\s+${alias.userId}\\s+other\\s+imap-bad\\.example\\s+error\\s+0 stored\\s+-\\s+STOPPED\\s+\\S`, 'm'))
      expect(table.stdout).toMatch(new RegExp(`^${goodId}\\s+${alias.userId}\\s+other\\s+imap-good\\.example\\s+idle\\s+3 stored\\s+\\d{4}-\\S+\\s+running\\s+-`, 'm'))
      for (const out of [table.stdout, JSON.stringify(listed)]) {
        expect(out).not.toContain('-owner@')
        expect(out).not.toContain(SUBJECT)
      }
      expect((await ops('accounts', '--limit', '1', '--json')).stdout).toContain(badId)
      expect(JSON.parse((await ops('accounts', '--limit', '1', '--json')).stdout)).toHaveLength(1)
      const help = await ops('help', 'accounts')
      expect(help.code).toBe(0)
      expect(help.stdout).toContain('accounts [--limit N] [--json]')
    } finally {
      await stopSync()
      await dovecot.stop()
    }
  }, 120_000)
})
