// A real `sync` process stopped (SIGTERM, as npm start, systemd or Kubernetes stop it) while its sync
// talks to a server that never stops talking: the connection is closed by the process, the sync
// ends through its own error path (the account and the job say it will be tried again), and the
// process exits cleanly instead of being cut off by the queue's stop timeout with the job still running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { drippingList } from '../../scripts/testing/hostile-imap-behaviours.ts'
import { startHostileImap, type HostileImap } from '../../scripts/testing/hostile-imap.ts'
import { addImapAccount } from '../../scripts/testing/mailbox-accounts.ts'
import { syncProcesses, type SyncProcesses } from '../../scripts/testing/sync-processes.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

const run = dovecotAvailable()

describe.skipIf(!run)('stopping the sync process', () => {
  let dovecot: Dovecot
  let imap: HostileImap
  let t: TestApp
  let processes: SyncProcesses
  beforeAll(async () => {
    dovecot = await startDovecot()
    imap = await startHostileImap({ tls: dovecot.certificates, users: { 'drip@hostile.test': 'pw' }, onCommand: drippingList(50) })
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true' })
    processes = await syncProcesses(t, dovecot.caFile)
  })
  afterAll(async () => {
    await processes?.close()
    await t?.close()
    await imap?.close()
    await dovecot?.stop()
  })

  it('SIGTERM closes a connection that never goes quiet: the sync ends as a failure to retry and the process exits 0', async () => {
    const user = new ApiClient(t.app)
    await user.register()
    const { providerId, jobId } = await addImapAccount(user, imap, 'drip@hostile.test', 'pw')
    const child = processes.start()
    await expect.poll(() => imap.commandsRunning(), { timeout: 30_000 }).toBeGreaterThan(0)
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    const [job] = await t.db.sql<{ status: string; error: string | null }[]>`select status, error from mailbox_sync_jobs where id = ${jobId}`
    expect(job).toEqual({ status: 'queued', error: 'The sync was stopped while the service restarted. It will be tried again.' })
    const [account] = await t.db.sql<{ lastError: string; authFailed: boolean }[]>`select last_error, auth_failed from email_providers where id = ${providerId}`
    expect(account).toEqual({ lastError: job.error, authFailed: false })
    expect(imap.openConnections()).toBe(0)
  })
})
