// SYNC_PROCESSES: the real `sync` process (node workers/sync/sync.ts) as the primary of two sync
// processes against a private Dovecot: both sync, one killed is started again, SIGTERM stops all.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { alive, heartbeatPids, killCluster, untilLogged } from '../../scripts/testing/cluster-processes.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { freePort } from '../../scripts/testing/free-port.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { createTestApp, TEST_SECRET_KEY, type TestApp } from '../../scripts/testing/test-app.ts'

const run = dovecotAvailable()

describe.skipIf(!run)('SYNC_PROCESSES', () => {
  let dovecot: Dovecot
  let t: TestApp
  let user: ApiClient
  let primary: ChildProcess
  const syncPids = () => heartbeatPids(t.db.sql, 'sync')

  /** Connects a new account with `count` messages on Dovecot; answers once its first sync is done. */
  async function syncedAccount(login: string, count: number) {
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: count }, (_, i) => ({ raw: sampleMail(i).raw })))
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    return syncJobFinished(user, providerId, jobId)
  }

  beforeAll(async () => {
    dovecot = await startDovecot()
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true' })
    // the queue notices a killed process's jobs by their heartbeat: its shortest
    await t.boss.updateQueue('sync-mailbox', { heartbeatSeconds: 10 })
    user = new ApiClient(t.app)
    await user.register()
    const metricsPort = await freePort()
    primary = spawn(process.execPath, [path.join(import.meta.dirname, 'sync.ts')], {
      env: {
        PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', SECRET_KEY: TEST_SECRET_KEY, DATABASE_URL: t.db.url, DATA_DIR: t.config.dataDir,
        ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: dovecot.caFile, SYNC_PROCESSES: '2', SYNC_CONCURRENCY: '2',
        METRICS_PORT: String(Math.max(1, metricsPort - 4)),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await untilLogged(primary, 'sync.started')
  }, 60_000)

  afterAll(async () => {
    await killCluster(primary, syncPids)
    await t?.close()
    await dovecot?.stop()
  })

  it('runs that many sync processes besides the primary, which sync the accounts between them', async () => {
    await expect.poll(syncPids, { timeout: 20_000 }).toHaveLength(2)
    expect((await syncPids()).every((pid) => pid !== primary.pid)).toBe(true)
    const jobs = await Promise.all(Array.from({ length: 6 }, (_, i) => syncedAccount(`cluster${i}@example.test`, 20)))
    expect(jobs.map((j) => j.status)).toEqual(jobs.map(() => 'done'))
    expect(jobs.map((j) => j.syncResult.newEmailsCount)).toEqual(jobs.map(() => 20))
  }, 120_000)

  it('starts a sync process that died again, which syncs, and SIGTERM stops them all', async () => {
    const before = await syncPids()
    expect(before).toHaveLength(2)
    process.kill(before[0], 'SIGKILL')
    await expect.poll(async () => (await syncPids()).filter((pid) => !before.includes(pid) && alive(pid)), { timeout: 30_000 }).toHaveLength(1)
    expect(alive(before[0])).toBe(false)
    // the two that run now sync new accounts
    const jobs = await Promise.all(Array.from({ length: 4 }, (_, i) => syncedAccount(`after-restart${i}@example.test`, 5)))
    expect(jobs.map((j) => j.syncResult?.newEmailsCount)).toEqual([5, 5, 5, 5])

    const pids = (await syncPids()).filter(alive)
    expect(pids).toHaveLength(2)
    const exited = new Promise<number | null>((resolve) => primary.once('exit', resolve))
    primary.kill('SIGTERM')
    expect(await exited).toBe(0)
    await expect.poll(() => pids.filter(alive), { timeout: 15_000 }).toEqual([])
  }, 120_000)
})
