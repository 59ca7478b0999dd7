// A sync yields its slot after SYNC_SLICE_SECONDS: it stops at a batch boundary with its cursor
// committed, finishes its job, and the rest of the mail comes in a new job queued behind it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dovecotAvailable } from '../../scripts/testing/dovecot.ts'
import { startHostileImap, type CommandHook, type HostileImap } from '../../scripts/testing/hostile-imap.ts'
import { hostileMail } from '../../scripts/testing/hostile-imap-behaviours.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()

/** Each FETCH of message sources answered after 1.2 s: past a slice of 1 s after the first batch, whatever the machine's speed. */
const slowSources: CommandHook = async (command) => {
  if (command.name === 'FETCH' && /BODY\.PEEK\[\]/i.test(command.args)) await new Promise((resolve) => setTimeout(resolve, 1200))
  return false
}

describe.skipIf(!run)('the sync\'s time slice', () => {
  let env: SyncEnv
  let imap: HostileImap
  beforeAll(async () => {
    env = await startSyncEnv({ env: () => ({ SYNC_SLICE_SECONDS: '1' }) })
    const inbox = Array.from({ length: 120 }, (_, i) => ({ uid: i + 1, raw: hostileMail({ subject: `message ${i + 1}`, messageId: `<m${i + 1}@hostile.test>` }) }))
    imap = await startHostileImap({ tls: env.dovecot.certificates, users: { 'slice@hostile.test': 'pw' }, folders: { INBOX: inbox }, onCommand: slowSources })
  })
  afterAll(async () => {
    await env?.close()
    await imap?.close()
  })

  it('stops after the batch that ends the slice, done with what it stored, and a new job brings the rest', async () => {
    const { providerId, jobId } = await addImapAccount(env.user, imap, 'slice@hostile.test', 'pw')
    const first = await syncJobFinished(env.user, providerId, jobId)
    expect(first.status).toBe('done')
    // batches of 50: the slice ends after the first, whose store is committed with the cursor
    expect(first.syncResult.newEmailsCount).toBe(50)
    // the rows of the last job are committed before its status: wait for both
    const state = async () => {
      const [{ count }] = await env.t.db.sql<{ count: number }[]>`select count(*)::int from received_emails where provider_id = ${providerId}`
      const jobs = await env.t.db.sql<{ status: string; newEmailsCount: number }[]>`
        select status, new_emails_count from mailbox_sync_jobs where provider_id = ${providerId} order by created_at`
      return { stored: count, allDone: jobs.every((j) => j.status === 'done'), jobs: jobs.length, added: jobs.reduce((n, j) => n + j.newEmailsCount, 0) }
    }
    await expect.poll(state, { timeout: 30_000 }).toMatchObject({ stored: 120, allDone: true, added: 120 })
    expect((await state()).jobs).toBeGreaterThanOrEqual(3)
  })
})
