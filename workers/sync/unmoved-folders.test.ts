// A cheap incremental sync (issue 32): STATUS (UIDVALIDITY, UIDNEXT, MESSAGES, HIGHESTMODSEQ;
// RFC 3501 §6.3.10, RFC 7162 §3.1.2) before any SELECT, and a folder none of them moved since its
// last complete sync is not selected at all. Counted on our own IMAP server (every command it
// received), and against a private Dovecot for changes another mail client makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dovecotAvailable } from '../../scripts/testing/dovecot.ts'
import { startHostileImap, type HostileImap, type HostileImapOptions } from '../../scripts/testing/hostile-imap.ts'
import { hostileMail } from '../../scripts/testing/hostile-imap-behaviours.ts'
import { addImapAccount, syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()
const PASSWORD = 'unmoved-password'

const message = (uid: number, folder = 'INBOX') => ({ uid, raw: hostileMail({ subject: `${folder} ${uid}`, messageId: `<${folder}-${uid}@unmoved.test>` }) })
/** SELECT or EXAMINE of any folder, as the server received them. */
const selects = (commands: string[]) => commands.filter((c) => /^(SELECT|EXAMINE) /i.test(c))

describe.skipIf(!run)('a sync of folders that did not move', () => {
  let env: SyncEnv
  const servers: HostileImap[] = []
  beforeAll(async () => {
    env = await startSyncEnv()
  })
  afterAll(async () => {
    await env?.close()
    await Promise.all(servers.map((s) => s.close()))
  })

  async function serve(login: string, options: HostileImapOptions): Promise<HostileImap> {
    const imap = await startHostileImap({ tls: env.dovecot.certificates, users: { [login]: PASSWORD }, ...options })
    servers.push(imap)
    return imap
  }

  async function subjects(providerId: string): Promise<string[]> {
    return (await env.t.db.sql<{ subject: string }[]>`select subject from received_emails where provider_id = ${providerId} order by subject`).map((r) => r.subject)
  }

  /** Runs a sync (a Sync press) and answers the commands the server received meanwhile. */
  async function commandsOfSync(imap: HostileImap, providerId: string) {
    const before = imap.commandsSeen().length
    const job = await syncNow(env.user, providerId)
    expect(job.status).toBe('done')
    return imap.commandsSeen().slice(before)
  }

  for (const listStatus of [false, true]) {
    it(`sends no SELECT when STATUS${listStatus ? ' (in the LIST, RFC 5819)' : ''} shows nothing moved, and selects the folder that moved`, async () => {
      const login = `unmoved-${listStatus}@hostile.test`
      const imap = await serve(login, {
        capabilities: ['CONDSTORE', ...(listStatus ? ['LIST-STATUS'] : [])],
        folders: { INBOX: [message(1), message(2)], Archive: [message(1, 'Archive')] },
      })
      const { providerId, jobId } = await addImapAccount(env.user, imap, login, PASSWORD)
      expect(await syncJobFinished(env.user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 2 } })
      const enabled = await env.user.json(env.user.patch(`/api/email-providers/${providerId}/folders`, { path: 'Archive', enabled: true }))
      expect(enabled.status).toBe(200)
      // the sync the PATCH queued fetches Archive; then both folders are synced to the end
      await expect.poll(() => subjects(providerId), { timeout: 30_000 }).toEqual(['Archive 1', 'INBOX 1', 'INBOX 2'])
      await expect.poll(async () => (await env.t.db.sql`select 1 from mailbox_sync_jobs where provider_id = ${providerId} and status <> 'done'`).length, { timeout: 30_000 }).toBe(0)

      // nothing moved: STATUS is asked, no folder selected, nothing fetched
      const quiet = await commandsOfSync(imap, providerId)
      expect(quiet.some((c) => /STATUS/i.test(c))).toBe(true)
      expect(selects(quiet)).toEqual([])
      expect(quiet.filter((c) => /^(FETCH|SEARCH)/i.test(c))).toEqual([])

      // new mail in Archive only: Archive is selected and its mail comes in, INBOX still is not selected
      imap.deliver('Archive', message(2, 'Archive'))
      const moved = await commandsOfSync(imap, providerId)
      expect(selects(moved)).toHaveLength(1)
      expect(selects(moved)[0]).toMatch(/Archive/)
      expect(await subjects(providerId)).toEqual(['Archive 1', 'Archive 2', 'INBOX 1', 'INBOX 2'])

      // and once it is in, the next sync selects nothing again
      expect(selects(await commandsOfSync(imap, providerId))).toEqual([])
    }, 90_000)
  }

  it('selects every time a server without CONDSTORE (a flag change shows in no STATUS item there)', async () => {
    const login = 'no-condstore@hostile.test'
    const imap = await serve(login, { capabilities: [], folders: { INBOX: [message(1)] } })
    const { providerId, jobId } = await addImapAccount(env.user, imap, login, PASSWORD)
    expect(await syncJobFinished(env.user, providerId, jobId)).toMatchObject({ status: 'done' })
    expect(selects(await commandsOfSync(imap, providerId))).toHaveLength(1)
  }, 60_000)

  it('picks up what another client changed on Dovecot after a sync that found nothing moved: a flag, an expunge, new mail', async () => {
    const login = 'unmoved@example.test'
    const password = env.dovecot.addUser(login)
    env.dovecot.writeMessages(login, Array.from({ length: 3 }, (_, i) => ({ raw: sampleMail(i).raw })))
    const { providerId, jobId } = await addImapAccount(env.user, env.dovecot, login, password)
    expect(await syncJobFinished(env.user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 } })
    const rows = () => env.t.db.sql<{ uid: number; isRead: boolean }[]>`select uid::int, is_read from received_emails where provider_id = ${providerId} order by uid`
    const [{ syncedUidNext }] = await env.t.db.sql`select synced_uid_next::int from mailbox_folders where provider_id = ${providerId} and path = 'INBOX'`
    expect(syncedUidNext).toBe(4)
    expect(await syncNow(env.user, providerId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 0 } })

    const other = await env.dovecot.client(login)
    try {
      const lock = await other.getMailboxLock('INBOX')
      try {
        await other.messageFlagsAdd('1', ['\\Seen'], { uid: true })
      } finally {
        lock.release()
      }
      expect(await syncNow(env.user, providerId)).toMatchObject({ status: 'done' })
      expect((await rows()).find((r) => r.uid === 1)?.isRead).toBe(true)

      const lock2 = await other.getMailboxLock('INBOX')
      try {
        await other.messageDelete('2', { uid: true })
      } finally {
        lock2.release()
      }
      expect(await syncNow(env.user, providerId)).toMatchObject({ status: 'done' })
      expect((await rows()).map((r) => r.uid)).toEqual([1, 3])
    } finally {
      await other.logout()
    }
    await env.dovecot.append(login, [{ raw: sampleMail(7).raw }])
    expect(await syncNow(env.user, providerId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 1 } })
    expect((await rows()).map((r) => r.uid)).toEqual([1, 3, 4])
  }, 90_000)
})
