// A server that goes down under an account that synced before (issue 32): the account says its
// server could not be reached and will be tried again (not that its port or security setting is
// wrong), and says nothing of it any more once a sync gets through, while that sync still runs.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queues } from '../../db/queues.ts'
import { dovecotAvailable } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const HOLD = 4_246_032 // advisory lock key the test holds to keep a sync's insert waiting

const refused = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, '127.0.0.1')
  socket.once('connect', () => { socket.destroy(); resolve(false) })
  socket.once('error', () => { socket.destroy(); resolve(true) })
})

describe.skipIf(!dovecotAvailable())('a sync while the IMAP server is down', () => {
  let env: SyncEnv
  beforeAll(async () => { env = await startSyncEnv() })
  afterAll(async () => { await env?.close() })

  it('says the server could not be reached and will be tried again, and drops that once a sync gets through', async () => {
    const { dovecot, t, user } = env
    const login = 'down@example.test'
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, [{ raw: sampleMail(1).raw }])
    const added = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, added.providerId, added.jobId)).toMatchObject({ status: 'done' })
    const account = async () => ((await user.json(user.get('/api/email-providers'))).body.providers as { id: string; state: string; lastError: string | null }[])
      .find((p) => p.id === added.providerId)!

    // retries a second apart, so the test need not wait out the queue's backoff
    await t.boss.updateQueue(queues.syncMailbox.name, { retryDelay: 1, retryBackoff: false })
    try {
      await dovecot.pause()
      await expect.poll(() => refused(dovecot.port), { timeout: 30_000, interval: 100 }).toBe(true)
      const sync = await user.json(user.post(`/api/email-providers/${added.providerId}/sync`))
      await expect.poll(async () => (await account()).lastError, { timeout: 30_000, interval: 200 })
        .toBe(`The mail server could not be reached (it refused the connection on port ${dovecot.port}). It will be tried again.`)
      expect((await account()).state).toBe('error')

      // back, with new mail whose insert this test holds up: the sync has logged in and runs
      dovecot.writeMessages(login, [{ raw: sampleMail(2).raw }])
      await t.db.sql.unsafe(`
        create function test_hold_insert() returns trigger language plpgsql as $$
        begin perform pg_advisory_xact_lock_shared(${HOLD}); return new; end $$;
        create trigger test_hold_insert before insert on received_emails for each row execute function test_hold_insert();`)
      const holder = await t.db.sql.reserve()
      try {
        await holder`select pg_advisory_lock(${HOLD})`
        await dovecot.resume()
        await expect.poll(async () => (await t.db.sql`select 1 from pg_locks where locktype = 'advisory' and objid = ${HOLD} and not granted`).length, { timeout: 60_000, interval: 200 }).toBe(1)
        expect(await account()).toMatchObject({ state: 'syncing', lastError: null })
      } finally {
        await holder`select pg_advisory_unlock(${HOLD})`
        holder.release()
        await t.db.sql.unsafe('drop trigger test_hold_insert on received_emails; drop function test_hold_insert()')
      }
      expect(await syncJobFinished(user, added.providerId, sync.body.jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 1 } })
      expect(await account()).toMatchObject({ state: 'idle', lastError: null })
    } finally {
      await t.boss.updateQueue(queues.syncMailbox.name, { retryDelay: queues.syncMailbox.retryDelay, retryBackoff: queues.syncMailbox.retryBackoff })
    }
  }, 180_000)

  it('still points at the port and security setting when the first connection of an account is refused', async () => {
    const { dovecot, user } = env
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo
        server.close(() => resolve(port))
      })
    })
    const login = 'wrongport@example.test'
    const password = dovecot.addUser(login)
    const { providerId, jobId } = await addImapAccount(user, { host: dovecot.host, port: closed }, login, password)
    // (tried again with the queue's backoff meanwhile: a server may be starting)
    await expect.poll(async () => (await user.json(user.get(`/api/email-providers/${providerId}/sync-jobs/${jobId}`))).body.error, { timeout: 30_000, interval: 200 })
      .toBe(`The mail server refused the connection on port ${closed}. Check the port and security setting.`)
  }, 60_000)
})
