// IMAP IDLE for open inboxes against a private Dovecot: mail APPENDed by another client reaches
// Postgres with no Sync press and no schedule tick (the schedule is an hour here); the number of
// held connections stays within its bound, most recently active users first; a user gone quiet
// is released; a dropped connection is re-opened; a server that never answers holds up no other.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'
import { startIdleWatcher, type IdleWatcher } from './idle-watcher.ts'
import type { ImapFlow } from 'imapflow'
import { decodePath, encodePath } from 'imapflow/lib/tools.js'
import { notifyFolders } from './imap-notify.ts'
import { startSyncWorker } from './sync-worker.ts'

const run = dovecotAvailable()

const plain = (subject: string) => ({
  raw: `From: Friend <friend@elsewhere.example>\r\nTo: owner@veilmail.test\r\nSubject: ${subject}\r\nMessage-ID: <${crypto.randomUUID()}@elsewhere.example>\r\n\r\nHello.\r\n`,
})

describe.skipIf(!run)('IMAP IDLE for open inboxes', () => {
  let dovecot: Dovecot
  let t: TestApp
  let stopWorker: () => Promise<void>
  let watcher: IdleWatcher
  let silent: net.Server
  beforeAll(async () => {
    dovecot = await startDovecot()
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true', IMAP_TIMEOUT_SECONDS: '1' })
    const deps = { sql: t.db.sql, boss: t.boss, config: t.config, imapCa: dovecot.ca }
    // no schedule within the test: only IDLE (or a Sync press, which the tests never make) syncs
    stopWorker = await startSyncWorker(t.boss, deps, { concurrency: 3, intervalSeconds: 3600, pollSeconds: 1 })
    watcher = startIdleWatcher(deps, { maxConnections: 3, activeSeconds: 120, tickSeconds: 0.5 })
    // an IMAP server that accepts connections and never says a word
    silent = net.createServer((socket) => socket.on('error', () => {}))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    await watcher?.stop()
    await stopWorker?.()
    await t?.close()
    await dovecot?.stop()
    silent?.close()
  })

  const subjects = async (providerId: string) =>
    (await t.db.sql<{ subject: string }[]>`select subject from received_emails where provider_id = ${providerId} order by uid`).map((r) => r.subject)
  const syncsWaiting = async (providerId: string) =>
    (await t.db.sql`select 1 from mailbox_sync_jobs where provider_id = ${providerId} and status in ('queued', 'running')`).length

  /** A user with one synced account on Dovecot and `messages` in it. */
  async function connectedUser(login: string, messages = 3) {
    const user = new ApiClient(t.app)
    await user.register()
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: messages }, (_, i) => ({ raw: sampleMail(i).raw })))
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done' })
    return { user, providerId }
  }

  /** Idling, and the sync the watch asked for when it began has run: from here only IDLE brings mail in. */
  async function idlingAndSettled(providerId: string) {
    await expect.poll(() => watcher.idling().includes(providerId), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => syncsWaiting(providerId), { timeout: 30_000 }).toBe(0)
  }

  it('brings mail APPENDed by another client into Postgres with no Sync press or schedule tick, and a silent server holds up no one', async () => {
    const { user, providerId } = await connectedUser('idle@example.test')
    // the same user's second account is on a server that never answers
    const { port } = silent.address() as net.AddressInfo
    const stuck = await addImapAccount(user, { host: '127.0.0.1', port }, 'stuck@example.test', 'pw')
    await t.db.sql`update email_providers set state = 'error' where id = ${stuck.providerId}`
    expect(watcher.idling()).not.toContain(providerId) // nobody has opened the inbox yet

    // the inbox tab: the list is read through the API
    expect((await user.get('/api/emails?providerId=all&limit=50&offset=0')).status).toBe(200)
    await idlingAndSettled(providerId)
    expect(await subjects(providerId)).toHaveLength(3)

    await dovecot.append('idle@example.test', [plain('Arrived while idling')])
    await expect.poll(() => subjects(providerId), { timeout: 30_000 }).toContain('Arrived while idling')
    expect(await subjects(providerId)).toHaveLength(4)
    expect(watcher.idling()).not.toContain(stuck.providerId)

    // a dropped connection is opened again, and mail keeps coming
    await dovecot.kick('idle@example.test')
    await dovecot.append('idle@example.test', [plain('Arrived after the drop')])
    await expect.poll(() => subjects(providerId), { timeout: 30_000 }).toContain('Arrived after the drop')
    await idlingAndSettled(providerId)
    await dovecot.append('idle@example.test', [plain('Arrived on the new connection')])
    await expect.poll(() => subjects(providerId), { timeout: 30_000 }).toContain('Arrived on the new connection')
    await t.db.sql`update inbox_presence set seen_at = now() - interval '1 hour'`
    await expect.poll(() => watcher.idling(), { timeout: 30_000 }).toEqual([])
  }, 180_000)

  it('holds at most its bound of connections, most recently active users first, and lets go of a user gone quiet', async () => {
    const accounts: { login: string; user: ApiClient; providerId: string }[] = []
    for (const name of ['first', 'second', 'third', 'fourth']) {
      accounts.push({ login: `${name}@bound.test`, ...(await connectedUser(`${name}@bound.test`, 1)) })
    }
    // all four open their inbox within seconds, the first longest ago: three connections at most (the bound)
    await t.db.sql`
      insert into inbox_presence (user_id, seen_at)
      select p.user_id, now() - make_interval(secs => 10 - a.n) from unnest(${accounts.map((a) => a.providerId)}::uuid[]) with ordinality as a(id, n)
      join email_providers p on p.id = a.id`
    await expect.poll(() => watcher.idling().length, { timeout: 30_000 }).toBe(3)
    const [claims] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from mailbox_idle_claims`
    expect(claims.n).toBe(3)
    const held = watcher.idling()
    // the first user opened the inbox longest ago: theirs is the one left out
    expect(held).not.toContain(accounts[0].providerId)
    // what Dovecot sees, once the syncs the new watches asked for are over: three connections
    const open = async () => {
      let n = 0
      for (const a of accounts) n += await dovecot.connections(a.login)
      return n
    }
    await expect.poll(open, { timeout: 30_000 }).toBe(3)

    // the second user goes quiet: released, and the first takes the free place
    await t.db.sql`update inbox_presence set seen_at = now() - interval '1 hour'
      where user_id = (select user_id from email_providers where id = ${accounts[1].providerId})`
    await expect.poll(() => watcher.idling().sort(), { timeout: 30_000 }).toEqual([accounts[0], accounts[2], accounts[3]].map((a) => a.providerId).sort())
    await expect.poll(() => dovecot.connections(accounts[1].login), { timeout: 30_000 }).toBe(0)
    const [after] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from mailbox_idle_claims`
    expect(after.n).toBe(3)
  }, 180_000)
})

// Folders beyond INBOX on an open inbox: IDLE reports only INBOX, so the enabled others are
// followed by NOTIFY (RFC 5465) where Dovecot offers it, and by polling their STATUS where it
// does not; mail another client puts there reaches Postgres with no Sync press or schedule tick.
describe.skipIf(!run).each([{ notify: true }, { notify: false }])('IMAP IDLE and the other enabled folders (NOTIFY offered: $notify)', ({ notify }) => {
  let env: SyncEnv
  let watcher: IdleWatcher
  beforeAll(async () => {
    // the schedule is an hour (startSyncEnv): only the watch (or a Sync press, never made here) syncs
    env = await startSyncEnv({ dovecot: { notify } })
    watcher = startIdleWatcher({ sql: env.t.db.sql, boss: env.t.boss, config: env.t.config, imapCa: env.dovecot.ca },
      { maxConnections: 2, activeSeconds: 120, tickSeconds: 0.5, folderPollSeconds: 1 })
  })
  afterAll(async () => {
    await watcher?.stop()
    await env?.close()
  })

  it('brings mail APPENDed to an enabled Sent or Archive into Postgres, and follows a folder turned on later', async () => {
    const { dovecot, t, user } = env
    const login = `folders-${notify}@example.test`
    const password = dovecot.addUser(login)
    await dovecot.append(login, [plain('In the inbox')])
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done' })
    const enable = async (path: string) => {
      const res = await user.json(user.patch(`/api/email-providers/${providerId}/folders`, { path, enabled: true }))
      expect(res.status).toBe(200)
      expect(await syncJobFinished(user, providerId, res.body.jobId)).toMatchObject({ status: 'done' })
    }
    await enable('Sent')
    const stored = async () => (await t.db.sql<{ subject: string; path: string }[]>`
      select e.subject, f.path from received_emails e join mailbox_folders f on f.id = e.folder_id where e.provider_id = ${providerId} order by e.subject`)
    const settled = async () => {
      await expect.poll(() => watcher.idling().includes(providerId), { timeout: 30_000 }).toBe(true)
      await expect.poll(async () => (await t.db.sql`select 1 from mailbox_sync_jobs where provider_id = ${providerId} and status in ('queued', 'running')`).length, { timeout: 30_000 }).toBe(0)
    }

    expect((await user.get('/api/emails?providerId=all&limit=50&offset=0')).status).toBe(200)
    await settled()
    expect(watcher.following(providerId)).toEqual(['Sent'])
    await dovecot.append(login, [plain('Sent from the phone')], 'Sent')
    await expect.poll(stored, { timeout: 30_000 }).toContainEqual({ subject: 'Sent from the phone', path: 'Sent' })

    // Archive turned on while the watch runs: followed from then on, on the same connection
    await enable('Archive')
    await expect.poll(() => watcher.following(providerId), { timeout: 30_000 }).toEqual(['Archive', 'Sent'])
    await settled()
    await dovecot.append(login, [plain('Archived by Thunderbird')], 'Archive')
    await expect.poll(stored, { timeout: 30_000 }).toContainEqual({ subject: 'Archived by Thunderbird', path: 'Archive' })
    // one connection watches INBOX and both folders (the syncs' own connections close when they end)
    await expect.poll(() => dovecot.connections(login), { timeout: 30_000 }).toBe(1)
    expect((await stored()).map((m) => m.subject)).toEqual(['Archived by Thunderbird', 'In the inbox', 'Sent from the phone'])
  }, 180_000)
})

describe.skipIf(!run)('NOTIFY for the folders an IDLE connection has not selected', () => {
  let dovecot: Dovecot
  beforeAll(async () => { dovecot = await startDovecot() })
  afterAll(() => dovecot?.stop())

  it('announces changes in the folders followed and none in the others', async () => {
    dovecot.addUser('notify@example.test')
    const client = await dovecot.client('notify@example.test')
    try {
      await client.mailboxCreate('Käse & Brot')
      await client.mailboxOpen('INBOX', { readOnly: true })
      const announced: string[] = []
      expect(await notifyFolders(client, () => ['Sent', 'Käse & Brot'], (path) => announced.push(path))).toBe(true)
      const idle = client.idle()
      // Trash first, then Sent: the server announces in order on one connection, so a
      // notification for Trash would come before the one for Sent
      await dovecot.append('notify@example.test', [plain('Binned')], 'Trash')
      await dovecot.append('notify@example.test', [plain('Sent')], 'Sent')
      await expect.poll(() => announced, { timeout: 30_000 }).toContain('Sent')
      expect(announced.every((m) => m === 'Sent')).toBe(true)
      // a name outside ASCII (Dovecot announces it in UTF-8, not in RFC 3501 §5.1.3 modified UTF-7)
      await dovecot.append('notify@example.test', [plain('Lunch')], 'Käse & Brot')
      await expect.poll(() => announced, { timeout: 30_000 }).toContain('Käse & Brot')
      await client.noop()
      await idle
    } finally {
      await client.logout().catch(() => client.close())
    }
  }, 60_000)

  it('encodes mailbox names as RFC 3501 §5.1.3 asks', () => {
    // the codec the watch decodes announced names with: imapflow's, on a connection without UTF8=ACCEPT
    const rev1 = { enabled: new Set<string>(), capabilities: new Map<string, boolean>([['IMAP4rev1', true]]) } as unknown as ImapFlow
    const encodeMailboxName = (name: string) => encodePath(rev1, name)
    const decodeMailboxName = (wire: string) => decodePath(rev1, wire)
    expect(encodeMailboxName('Sent')).toBe('Sent')
    expect(encodeMailboxName('A&B')).toBe('A&-B')
    // the RFC's own example
    expect(encodeMailboxName('~peter/mail/台北/日本語')).toBe('~peter/mail/&U,BTFw-/&ZeVnLIqe-')
    expect(decodeMailboxName('~peter/mail/&U,BTFw-/&ZeVnLIqe-')).toBe('~peter/mail/台北/日本語')
    expect(decodeMailboxName(encodeMailboxName('Käse & Brot'))).toBe('Käse & Brot')
  })
})
