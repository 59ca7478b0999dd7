// Folders beyond INBOX against a private Dovecot: Sent and Archive (RFC 6154 SPECIAL-USE) are
// listed with their counts; a folder the user enables is synced (new mail and write-back too),
// one turned off again leaves the inbox with its mail; bad or foreign requests are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import type { TestApp } from '../../scripts/testing/test-app.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()

const mail = (subject: string) => ({
  raw: `From: Ann <ann@elsewhere.example>\r\nTo: owner@veilmail.test\r\nSubject: ${subject}\r\nMessage-ID: <${crypto.randomUUID()}@elsewhere.example>\r\n\r\n${subject}.\r\n`,
})

describe.skipIf(!run)('folders beyond INBOX', () => {
  let dovecot: Dovecot
  let t: TestApp
  let user: ApiClient
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv()
    ;({ dovecot, t, user } = env)
  })
  afterAll(() => env?.close())

  const subjects = async () => {
    const emails = (await user.json(user.get('/api/emails?providerId=all&limit=100&offset=0'))).body.emails as { subject: string; folderId: string }[]
    return emails.map((e) => e.subject).sort()
  }
  const folder = async (providerId: string, path: string) =>
    (await user.json(user.get('/api/email-providers'))).body.providers.find((p: any) => p.id === providerId).folders.find((f: any) => f.path === path)

  it('lists Sent and Archive with their counts, syncs a folder once enabled, and drops it when turned off', async () => {
    const login = 'folders@example.test'
    const password = dovecot.addUser(login)
    await dovecot.append(login, [mail('Inbox one'), mail('Inbox two')])
    await dovecot.append(login, [{ ...mail('Sent one'), flags: 'S' }, mail('Sent two'), mail('Sent three')], 'Sent')
    await dovecot.append(login, ['Old one', 'Old two', 'Old three', 'Old four'].map((s, i) => ({ ...mail(s), flags: i === 0 ? 'S' : '' })), 'Archive')
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    expect(await syncJobFinished(user, providerId, jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 2 } })

    expect(await folder(providerId, 'Sent')).toMatchObject({ specialUse: '\\Sent', enabled: false, messageCount: 3, unseenCount: 2, stored: 0 })
    expect(await folder(providerId, 'Archive')).toMatchObject({ specialUse: '\\Archive', enabled: false, messageCount: 4, unseenCount: 3, stored: 0 })
    expect(await folder(providerId, 'INBOX')).toMatchObject({ enabled: true, messageCount: 2, unseenCount: 2, stored: 2 })
    expect(await subjects()).toEqual(['Inbox one', 'Inbox two'])

    // enabled: a sync is queued at once and brings the folder's mail in
    const enabled = await user.json(user.patch(`/api/email-providers/${providerId}/folders`, { path: 'Archive', enabled: true }))
    expect(enabled.status).toBe(200)
    expect(await syncJobFinished(user, providerId, enabled.body.jobId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 4 } })
    expect(await subjects()).toEqual(['Inbox one', 'Inbox two', 'Old four', 'Old one', 'Old three', 'Old two'])
    const archive = await folder(providerId, 'Archive')
    expect(archive).toMatchObject({ enabled: true, stored: 4, unread: 3 })
    const emails = (await user.json(user.get('/api/emails?providerId=all&limit=100&offset=0'))).body.emails as any[]
    expect(emails.filter((e) => e.folderId === archive.id).map((e) => e.subject).sort()).toEqual(['Old four', 'Old one', 'Old three', 'Old two'])
    expect((await user.json(user.get('/api/emails/counts'))).body).toMatchObject({ total: 6, unread: 5 })

    // one folder's list and counts: ?folder={id}, alone or with its account and a category
    const inFolder = async (query: string) =>
      ((await user.json(user.get(`/api/emails?${query}`))).body.emails as { subject: string; folderId: string }[])
    expect((await inFolder(`folder=${archive.id}`)).map((e) => e.subject).sort()).toEqual(['Old four', 'Old one', 'Old three', 'Old two'])
    expect((await inFolder(`folder=${archive.id}&providerId=${providerId}&category=unread`)).map((e) => e.subject).sort()).toEqual(['Old four', 'Old three', 'Old two'])
    const pages = [...(await inFolder(`folder=${archive.id}&limit=2&offset=0`)), ...(await inFolder(`folder=${archive.id}&limit=2&offset=2`))]
    expect(pages.map((e) => e.subject).sort()).toEqual(['Old four', 'Old one', 'Old three', 'Old two'])
    const inbox = await folder(providerId, 'INBOX')
    expect((await inFolder(`folder=${inbox.id}`)).map((e) => e.subject).sort()).toEqual(['Inbox one', 'Inbox two'])
    expect((await user.json(user.get(`/api/emails/counts?folder=${archive.id}`))).body).toMatchObject({ total: 4, unread: 3, starred: 0 })
    // a folder of another user's account, one of no account, or no folder id at all
    const other = new ApiClient(t.app)
    await other.register()
    for (const path of [`/api/emails?folder=${archive.id}`, `/api/emails/counts?folder=${archive.id}`, `/api/emails?folder=${crypto.randomUUID()}`]) {
      expect(await other.json(other.get(path))).toMatchObject({ status: 404, body: { message: 'Not found' } })
    }
    for (const bad of ['x', "' or 1=1 --", `${archive.id}x`]) {
      expect(await user.json(user.get(`/api/emails?folder=${encodeURIComponent(bad)}`))).toMatchObject({ status: 400, body: { message: 'folder must be a folder id' } })
    }

    // it keeps syncing: new mail there, and a star written back to that folder
    await dovecot.append(login, [mail('Old five')], 'Archive')
    expect(await syncNow(user, providerId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 1 } })
    const starred = emails.find((e) => e.subject === 'Old two')
    expect((await user.patch(`/api/emails/${starred.id}`, { isStarred: true })).status).toBe(200)
    await expect.poll(async () => {
      const client = await dovecot.client(login)
      try {
        await client.mailboxOpen('Archive', { readOnly: true })
        const flagged: string[] = []
        for await (const m of client.fetch('1:*', { envelope: true, flags: true })) if (m.flags?.has('\\Flagged')) flagged.push(m.envelope?.subject ?? '')
        return flagged
      } finally {
        await client.logout()
      }
    }, { timeout: 30_000 }).toEqual(['Old two'])

    // turned off: its mail leaves the inbox and the counts; the folder stays listed
    const off = await user.json(user.patch(`/api/email-providers/${providerId}/folders`, { path: 'Archive', enabled: false }))
    expect(off).toMatchObject({ status: 200, body: { jobId: null } })
    expect(await subjects()).toEqual(['Inbox one', 'Inbox two'])
    expect((await user.json(user.get('/api/emails/counts'))).body).toMatchObject({ total: 2, unread: 2 })
    expect(await folder(providerId, 'Archive')).toMatchObject({ enabled: false, stored: 0 })
    await syncNow(user, providerId)
    expect(await subjects()).toEqual(['Inbox one', 'Inbox two'])
    expect(await folder(providerId, 'Archive')).toMatchObject({ enabled: false, messageCount: 5, stored: 0 })
  }, 180_000)

  it('refuses to turn INBOX off, a folder the account lacks, a malformed body, and another user', async () => {
    const login = 'folders-bad@example.test'
    const password = dovecot.addUser(login)
    const { providerId, jobId } = await addImapAccount(user, dovecot, login, password)
    await syncJobFinished(user, providerId, jobId)
    const path = `/api/email-providers/${providerId}/folders`
    expect(await user.json(user.patch(path, { path: 'INBOX', enabled: false }))).toMatchObject({ status: 400, body: { message: 'INBOX is always synced.' } })
    expect(await user.json(user.patch(path, { path: 'Nowhere', enabled: true }))).toMatchObject({ status: 404, body: { message: 'This mailbox has no such folder.' } })
    expect((await user.json(user.patch(path, { path: 'Sent', enabled: 'yes' }))).status).toBe(400)
    expect((await user.json(user.patch(path, { path: '', enabled: true }))).status).toBe(400)
    const other = new ApiClient(t.app)
    await other.register()
    expect((await other.patch(path, { path: 'Sent', enabled: true })).status).toBe(404)
    expect(await folder(providerId, 'Sent')).toMatchObject({ enabled: false })
  })
})
