// Drafts saved while composing as a connected mailbox (issue 26): PUT /api/drafts/{id} → the
// account's write-back job → its \Drafts folder on a private Dovecot (which has none: "Drafts" is
// created), each save replacing the last copy; listed in the inbox's Drafts folder by the sync;
// reopened from there, sent, or thrown away. Real database, real sync worker, real IMAP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()

describe.runIf(run)('drafts in the mailbox\'s Drafts folder', () => {
  let env: SyncEnv
  let providerId: string
  let firstSync: string
  const address = `writer-${Date.now()}@mailbox.test`

  beforeAll(async () => {
    env = await startSyncEnv()
    const password = env.dovecot.addUser(address)
    const added = await addImapAccount(env.user, env.dovecot, address, password)
    providerId = added.providerId
    firstSync = added.jobId
  }, 60_000)
  afterAll(() => env?.close())

  /** Each message of the folder as another mail app sees it: subject, flags, text. */
  async function onServer(folder = 'Drafts') {
    const client = await env.dovecot.client(address)
    try {
      const exists = (await client.list()).some((f) => f.path === folder)
      if (!exists) return undefined
      const lock = await client.getMailboxLock(folder, { readOnly: true })
      const found: { subject: string; flags: string[]; text: string }[] = []
      try {
        if (client.mailbox && client.mailbox.exists > 0) {
          for await (const m of client.fetch('1:*', { envelope: true, flags: true, source: true })) {
            const text = m.source!.toString().split('\r\n\r\n').slice(1).join('\r\n\r\n').trim()
            found.push({ subject: m.envelope?.subject ?? '', flags: [...(m.flags ?? [])].filter((f) => f !== '\\Recent').sort(), text })
          }
        }
      } finally {
        lock.release()
      }
      return found
    } finally {
      await client.logout()
    }
  }
  const save = (id: string, body: Record<string, unknown>, as: ApiClient = env.user) => as.json(as.put(`/api/drafts/${id}`, { providerId, ...body }))

  it('a save lands in a Drafts folder made for it, flagged \\Draft; the next save replaces it', async () => {
    expect((await syncJobFinished(env.user, providerId, firstSync)).status).toBe('done')
    const id = crypto.randomUUID()
    const first = await save(id, { to: 'friend@example.org', subject: 'Plans', body: 'First thoughts' })
    expect(first.status).toBe(200)
    expect(first.body.draft).toMatchObject({ id, providerId, version: 1 })
    await expect.poll(() => onServer(), { timeout: 20_000, interval: 200 }).toEqual([{ subject: 'Plans', flags: ['\\Draft', '\\Seen'], text: 'First thoughts' }])
    // on the server now: nothing of it is kept here
    await expect.poll(async () => (await env.t.db.sql`select content from mailbox_drafts where id = ${id}`)[0].content, { timeout: 10_000 }).toBeNull()
    expect((await save(id, { to: 'friend@example.org', subject: 'Plans', body: 'Second thoughts' })).body.draft.version).toBe(2)
    await expect.poll(() => onServer(), { timeout: 20_000, interval: 200 }).toEqual([{ subject: 'Plans', flags: ['\\Draft', '\\Seen'], text: 'Second thoughts' }])
    // the sync lists it in the inbox's Drafts folder, with the folder's SPECIAL-USE role
    await expect.poll(async () => (await env.t.db.sql`
      select e.subject, f.special_use from received_emails e join mailbox_folders f on f.id = e.folder_id
      where e.provider_id = ${providerId} and f.path = 'Drafts' and not e.deleted`).map((r) => [r.subject, r.specialUse]), { timeout: 20_000, interval: 200 })
      .toEqual([['Plans', '\\Drafts']])
    // thrown away: gone from the server, and its row
    expect((await env.user.json(env.user.delete(`/api/drafts/${id}`))).status).toBe(200)
    await expect.poll(() => onServer(), { timeout: 20_000, interval: 200 }).toEqual([])
    await expect.poll(async () => (await env.t.db.sql`select id from mailbox_drafts where id = ${id}`).length, { timeout: 10_000 }).toBe(0)
  })

  it('reopened from the Drafts folder, its first save replaces that copy; sent, it leaves the folder', async () => {
    const first = crypto.randomUUID()
    await save(first, { to: 'friend@example.org', subject: 'Reopened', body: 'Draft one' })
    await expect.poll(() => onServer(), { timeout: 20_000, interval: 200 }).toEqual([expect.objectContaining({ subject: 'Reopened', text: 'Draft one' })])
    let emailId = ''
    await expect.poll(async () => {
      const [row] = await env.t.db.sql`select e.id from received_emails e join mailbox_folders f on f.id = e.folder_id where f.path = 'Drafts' and e.subject = 'Reopened' and not e.deleted`
      emailId = row?.id ?? ''
      return emailId
    }, { timeout: 20_000, interval: 200 }).not.toBe('')
    // the browser lost the first draft (another device, a reload): it reopens the synced copy under a new id
    const reopened = crypto.randomUUID()
    expect((await save(reopened, { to: 'friend@example.org', subject: 'Reopened', body: 'Draft two', replacesEmailId: emailId })).status).toBe(200)
    await expect.poll(() => onServer(), { timeout: 20_000, interval: 200 }).toEqual([expect.objectContaining({ subject: 'Reopened', text: 'Draft two' })])
    // sent as the mailbox (its SMTP server set; nothing sends here): the draft leaves the folder at once
    await env.user.json(env.user.put(`/api/email-providers/${providerId}/smtp`, { host: 'smtp.example.org', port: 465, security: 'tls' }))
    const sent = await env.user.json(env.user.post('/api/email-jobs', { to: 'friend@example.org', subject: 'Reopened', body: 'Draft two', fromProviderId: providerId, draftId: reopened }))
    expect(sent.status).toBe(201)
    await expect.poll(() => onServer(), { timeout: 20_000, interval: 200 }).toEqual([])
  })

  it('saves racing each other end with one copy on the server: the last one\'s', async () => {
    const id = crypto.randomUUID()
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => save(id, { subject: 'Racing', body: `Take ${i}` })))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200])
    const last = answers.reduce((a, b) => (a.body.draft.version > b.body.draft.version ? a : b))
    expect(last.body.draft.version).toBe(6)
    const lastBody = `Take ${answers.indexOf(last)}`
    await expect.poll(async () => (await onServer())?.filter((m) => m.subject === 'Racing').map((m) => m.text), { timeout: 30_000, interval: 200 }).toEqual([lastBody])
    await expect.poll(async () => (await env.t.db.sql`select saved_version from mailbox_drafts where id = ${id}`)[0].savedVersion, { timeout: 10_000 }).toBe(6)
  })

  it('another user\'s draft or mailbox is not theirs to write; bad input is refused', async () => {
    const mine = crypto.randomUUID()
    await save(mine, { subject: 'Mine', body: 'x' })
    const other = new ApiClient(env.t.app)
    await other.register()
    expect((await save(mine, { subject: 'Taken over', body: 'y' }, other)).status).toBe(404)
    expect((await other.json(other.delete(`/api/drafts/${mine}`))).status).toBe(404)
    const [{ version }] = await env.t.db.sql`select version from mailbox_drafts where id = ${mine}`
    expect(version).toBe(1)
    expect((await save('not-a-uuid', { subject: 'x' })).status).toBe(404)
    expect((await save(crypto.randomUUID(), { subject: 'Bcc: x@y\r\nX: y' })).status).toBe(400)
    expect((await save(crypto.randomUUID(), { to: 'a@b\nBcc: evil@x' })).status).toBe(400)
    expect((await save(crypto.randomUUID(), { subject: 'x', replacesEmailId: crypto.randomUUID() })).status).toBe(404)
    expect((await env.user.json(env.user.put(`/api/drafts/${crypto.randomUUID()}`, { providerId: crypto.randomUUID(), subject: 'x' }))).status).toBe(400)
  })

  it('keeps a draft\'s Cc: the copy in the Drafts folder has it, as the sync reads it back', async () => {
    const id = crypto.randomUUID()
    expect((await save(id, { to: 'friend@example.org, other@example.net', cc: 'carol@example.com, dan@example.org', subject: 'With Cc', body: 'All of you' })).status).toBe(200)
    await expect.poll(async () => (await env.t.db.sql`
      select e.to_address, e.cc_addresses from received_emails e join mailbox_folders f on f.id = e.folder_id
      where e.provider_id = ${providerId} and f.path = 'Drafts' and e.subject = 'With Cc' and not e.deleted`), { timeout: 20_000, interval: 200 })
      .toEqual([{ toAddress: 'friend@example.org, other@example.net', ccAddresses: 'carol@example.com, dan@example.org' }])
    expect((await save(crypto.randomUUID(), { cc: 'a@b.example\r\nBcc: evil@x.example' })).status).toBe(400)
    expect((await env.user.json(env.user.delete(`/api/drafts/${id}`))).status).toBe(200)
    await expect.poll(async () => (await onServer())?.filter((m) => m.subject === 'With Cc'), { timeout: 20_000, interval: 200 }).toEqual([])
  })
})
