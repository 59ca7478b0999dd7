// GET /api/emails/counts and the sidebar's folder counts while the user stars, reads and deletes
// many messages at once: each change is its own request and transaction (the row, the counts and
// the write-back job), and the counts then equal a recount of the messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('counts under parallel changes', () => {
  it('equal a recount after 150 star, read and delete requests at once across two folders', async () => {
    const user = new ApiClient(t.app)
    const { user: me } = await user.register()
    // the account as its first sync leaves it (the sync's own tests make these from a real IMAP
    // server); no sync process runs here, so the write-back jobs stay queued
    const provider = await user.json(user.post('/api/email-providers', {
      provider: 'other', email: 'counts@mail.example',
      encryptedCredentials: Buffer.from(JSON.stringify({ email: 'counts@mail.example', password: 'pw', host: 'imap.mail.example', port: 993, secure: true })).toString('base64'),
    }))
    const providerId = provider.body.provider.id as string
    const folders = await t.db.sql<{ id: string }[]>`
      insert into mailbox_folders (provider_id, path, enabled) values (${providerId}, 'INBOX', true), (${providerId}, 'Archive', true) returning id`
    const ids = (await t.db.sql<{ id: string }[]>`
      insert into received_emails (user_id, provider_id, folder_id, uid, thread_id, received_at, size, is_read, is_starred)
      select ${me.id}, ${providerId}, f.id, g, gen_random_uuid(), now() - g * interval '1 minute', 100 + g, g % 2 = 0, g % 5 = 0
      from unnest(${folders.map((f) => f.id)}::uuid[]) as f(id), generate_series(1, 100) as g
      returning id`).map((r) => r.id)

    const changes = ids.slice(0, 150).map((id, i) =>
      i % 10 === 9 ? user.delete(`/api/emails/${id}`) : user.patch(`/api/emails/${id}`, i % 2 ? { isRead: i % 3 === 0 } : { isStarred: i % 4 !== 0 }))
    expect((await Promise.all(changes)).map((r) => r.status)).toEqual(Array(150).fill(200))

    const recount = async (folderId?: string) => (await t.db.sql<{ total: number; unread: number; starred: number; bytes: number }[]>`
      select count(*)::int as total, (count(*) filter (where not is_read))::int as unread, (count(*) filter (where is_starred))::int as starred,
        coalesce(sum(size), 0)::float8 as bytes
      from received_emails where provider_id = ${providerId} and not deleted and (${folderId ?? null}::uuid is null or folder_id = ${folderId ?? null})`)[0]
    for (const folder of folders) {
      expect((await user.json(user.get(`/api/emails/counts?folder=${folder.id}`))).body).toEqual({ success: true, ...(await recount(folder.id)) })
    }
    expect((await user.json(user.get('/api/emails/counts'))).body).toEqual({ success: true, ...(await recount()) })
    const listed = (await user.json(user.get('/api/email-providers'))).body.providers[0].folders as { id: string; stored: number; unread: number }[]
    for (const folder of folders) {
      const { total, unread } = await recount(folder.id)
      expect(listed.find((f) => f.id === folder.id)).toMatchObject({ stored: total, unread })
    }
  })
})
