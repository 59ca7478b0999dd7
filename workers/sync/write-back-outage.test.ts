// The write-back through an outage (issue #13: "a change made while the server is unreachable is
// applied when it is back"): the private Dovecot is stopped for real, the user stars, reads and
// deletes; the mailbox-changes job fails on the refused connection and is retried while the rows
// stay marked pending; Dovecot is started again on the same port and the next retry writes it all.
// An outage that outlasts every retry is written by the next sync of the account instead.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queues } from '../../db/queues.ts'
import { DELETE_UNDO_SECONDS } from './mailbox-changes.ts'
import { onLogEvent, type Fields } from '../../lib/log.ts'
import type { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'
import type { TestApp } from '../../scripts/testing/test-app.ts'

const run = dovecotAvailable()

/** Resolves once a TCP connect to the port is answered (`true`) or refused (`false`), as asked. */
async function portListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => { socket.destroy(); resolve(false) })
  })
}

describe.skipIf(!run)('write-back while the IMAP server is down', () => {
  let env: SyncEnv
  let dovecot: Dovecot
  let t: TestApp
  let user: ApiClient
  const events: { event: string; fields: Fields }[] = []
  const unsubscribe = onLogEvent((_level, event, fields) => events.push({ event, fields }))
  const login = 'outage@example.test'

  beforeAll(async () => {
    env = await startSyncEnv()
    ;({ dovecot, t, user } = env)
  })
  afterAll(async () => {
    unsubscribe()
    await env?.close()
  })

  const jobsOf = (providerId: string) => t.db.sql<{ id: string; state: string; retryCount: number }[]>`
    select id, state, retry_count from pgboss.job where name = ${queues.mailboxChanges.name} and data->>'providerId' = ${providerId} order by created_on`
  const rowsOf = (providerId: string) => t.db.sql<{ id: string; subject: string; isRead: boolean; isStarred: boolean; flagsPending: boolean; deleted: boolean }[]>`
    select id, subject, is_read, is_starred, flags_pending, deleted from received_emails where provider_id = ${providerId} order by uid`

  it('keeps star, read and delete pending through the outage and writes them when the server is back', async () => {
    const password = dovecot.addUser(login)
    dovecot.writeMessages(login, Array.from({ length: 5 }, (_, i) => ({ raw: sampleMail(i * 8).raw })))
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 5 } })
    const [starred, read, deleted, untouched] = await rowsOf(providerId)
    expect(await dovecot.flags(login)).toEqual(new Map((await rowsOf(providerId)).map((r) => [r.subject, []])))

    // retries 2 s apart instead of 15 s doubling, as many as a busy machine's outage takes: the
    // queue's policy, copied into each new job
    await t.boss.updateQueue(queues.mailboxChanges.name, { retryDelay: 2, retryBackoff: false, retryLimit: 1000 })

    // the server goes away: every connection to its port is refused
    await dovecot.pause()
    await expect.poll(() => portListening(dovecot.port), { timeout: 30_000, interval: 100 }).toBe(false)

    expect((await user.patch(`/api/emails/${starred.id}`, { isStarred: true })).status).toBe(200)
    expect((await user.patch(`/api/emails/${read.id}`, { isRead: true })).status).toBe(200)
    expect((await user.delete(`/api/emails/${deleted.id}`)).status).toBe(200)
    // the user sees the change at once
    expect((await user.json(user.get(`/api/emails/${starred.id}`))).body.email).toMatchObject({ isStarred: true })
    expect((await user.get(`/api/emails/${deleted.id}`)).status).toBe(404)

    // the write-back fails and is retried, not dropped: one job stays due, retried again and again
    // (a job queued by a later PATCH while it waits may fail for good: stately, one queued per
    // account, and the one waiting writes every pending change)
    const due = <J extends { state: string }>(jobs: J[]) => jobs.filter((j) => /^(created|retry|active)$/.test(j.state))
    // (the outage outlasts the delete's undo window: the retry after it writes the delete with the
    // rest, and no job of its own waits for the window meanwhile)
    const undoOver = async () => (await t.db.sql`select deleted_at + make_interval(secs => ${DELETE_UNDO_SECONDS}) < now() as over from received_emails where id = ${deleted.id}`)[0].over as boolean
    await expect.poll(async () => ({ due: due(await jobsOf(providerId)).map((j) => j.retryCount >= 3), undoOver: await undoOver() }), { timeout: 60_000, interval: 200 }).toEqual({ due: [true], undoOver: true })
    expect(due(await jobsOf(providerId))).toHaveLength(1)
    const [waiting] = due(await jobsOf(providerId))
    const failures = events.filter((e) => e.event === 'mailbox_changes.failed' && e.fields.provider === providerId)
    expect(failures.length).toBeGreaterThanOrEqual(3)
    expect(new Set(failures.map((f) => f.fields.kind))).toEqual(new Set(['refused']))
    expect(events.some((e) => e.event === 'mailbox_changes.done' && e.fields.provider === providerId)).toBe(false)
    // the changes wait in Postgres, marked pending
    const pending = await rowsOf(providerId)
    const state = (r: (typeof pending)[number]) => ({ isRead: r.isRead, isStarred: r.isStarred, flagsPending: r.flagsPending, deleted: r.deleted })
    expect(state(pending.find((r) => r.id === starred.id)!)).toEqual({ isRead: false, isStarred: true, flagsPending: true, deleted: false })
    expect(state(pending.find((r) => r.id === read.id)!)).toEqual({ isRead: true, isStarred: false, flagsPending: true, deleted: false })
    expect(state(pending.find((r) => r.id === deleted.id)!)).toMatchObject({ deleted: true })
    expect(state(pending.find((r) => r.id === untouched.id)!)).toEqual({ isRead: false, isStarred: false, flagsPending: false, deleted: false })

    // the server is back, on the same port with the same mail
    await dovecot.resume()
    await expect.poll(() => portListening(dovecot.port), { timeout: 30_000, interval: 100 }).toBe(true)

    // another client sees what the user did
    await expect.poll(async () => {
      const inbox = await dovecot.flags(login)
      return { starred: inbox.get(starred.subject), read: inbox.get(read.subject), deleted: inbox.has(deleted.subject), untouched: inbox.get(untouched.subject) }
    }, { timeout: 60_000, interval: 250 }).toEqual({ starred: ['\\Flagged'], read: ['\\Seen'], deleted: false, untouched: [] })
    expect((await dovecot.flags(login, 'Trash')).has(deleted.subject)).toBe(true)

    // nothing is left pending, the deleted row is gone, and the job finished
    await expect.poll(async () => (await rowsOf(providerId)).filter((r) => r.flagsPending || r.deleted).length, { timeout: 30_000, interval: 200 }).toBe(0)
    const after = await rowsOf(providerId)
    expect(after.some((r) => r.id === deleted.id)).toBe(false)
    expect(after.find((r) => r.id === starred.id)).toMatchObject({ isStarred: true, isRead: false })
    expect(after.find((r) => r.id === read.id)).toMatchObject({ isRead: true, isStarred: false })
    await expect.poll(async () => (await jobsOf(providerId)).find((j) => j.id === waiting.id)?.state, { timeout: 30_000, interval: 200 }).toBe('completed')
    expect(due(await jobsOf(providerId))).toEqual([])
    // the failures came first, then the one success
    const order = events.filter((e) => e.event.startsWith('mailbox_changes.') && e.fields.provider === providerId).map((e) => e.event)
    expect(order.at(-1)).toBe('mailbox_changes.done')
    expect(order.filter((e) => e === 'mailbox_changes.done')).toHaveLength(1)
    expect(order.indexOf('mailbox_changes.done')).toBeGreaterThanOrEqual(3)
  }, 180_000)

  it('writes what outlasted the write-back\'s retries with the next sync once the server is back', async () => {
    const other = 'outlasting@example.test'
    const password = dovecot.addUser(other)
    dovecot.writeMessages(other, Array.from({ length: 2 }, (_, i) => ({ raw: sampleMail(i * 8 + 3).raw })))
    const { providerId, jobId } = await addImapAccount(user, dovecot, other, password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done' })
    const [starred, untouched] = await rowsOf(providerId)

    // one try only: the outage outlasts every retry the write-back has
    await t.boss.updateQueue(queues.mailboxChanges.name, { retryLimit: 0 })
    await dovecot.pause()
    await expect.poll(() => portListening(dovecot.port), { timeout: 30_000, interval: 100 }).toBe(false)
    expect((await user.patch(`/api/emails/${starred.id}`, { isStarred: true })).status).toBe(200)
    await expect.poll(async () => (await jobsOf(providerId)).map((j) => j.state), { timeout: 60_000, interval: 200 }).toEqual(['failed'])
    expect((await rowsOf(providerId)).find((r) => r.id === starred.id)).toMatchObject({ isStarred: true, flagsPending: true })

    // the server is back; nothing but a sync (the Sync button here) touches the account
    await dovecot.resume()
    await expect.poll(() => portListening(dovecot.port), { timeout: 30_000, interval: 100 }).toBe(true)
    const sync = await user.json(user.post(`/api/email-providers/${providerId}/sync`))
    expect(await syncJobFinished(user, providerId, sync.body.jobId)).toMatchObject({ status: 'done' })

    await expect.poll(async () => {
      const inbox = await dovecot.flags(other)
      return { starred: inbox.get(starred.subject), untouched: inbox.get(untouched.subject) }
    }, { timeout: 60_000, interval: 250 }).toEqual({ starred: ['\\Flagged'], untouched: [] })
    await expect.poll(async () => (await rowsOf(providerId)).filter((r) => r.flagsPending).length, { timeout: 30_000, interval: 200 }).toBe(0)
  }, 180_000)
})
