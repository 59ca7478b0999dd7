// POST /api/emails/{id}/move (Archive, Move to) and its Undo: only the user's own message, only to
// another folder of the same account; hidden at once, back on restore. Against Postgres; no sync
// process runs here, so the write-back jobs stay queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** A user with one account of INBOX and Archive, and one message in INBOX. */
async function owner() {
  const api = new ApiClient(t.app)
  const { user } = await api.register()
  const provider = await api.json(api.post('/api/email-providers', {
    provider: 'other', email: `${user.id.slice(0, 8)}@mail.example`,
    encryptedCredentials: Buffer.from(JSON.stringify({ email: 'x@mail.example', password: 'pw', host: 'imap.mail.example', port: 993, secure: true })).toString('base64'),
  }))
  const providerId = provider.body.provider.id as string
  const [inbox, archive] = await t.db.sql<{ id: string }[]>`
    insert into mailbox_folders (provider_id, path, special_use, enabled) values (${providerId}, 'INBOX', null, true), (${providerId}, 'Archive', '\\Archive', false) returning id`
  const [email] = await t.db.sql<{ id: string }[]>`
    insert into received_emails (user_id, provider_id, folder_id, uid, thread_id, received_at, size, subject)
    values (${user.id}, ${providerId}, ${inbox.id}, 1, gen_random_uuid(), now(), 100, 'To archive') returning id`
  return { api, email: email.id, inbox: inbox.id, archive: archive.id }
}

describe('POST /api/emails/{id}/move', () => {
  it('hides the message at once, marks it for the write-back to the folder, and Undo brings it back', async () => {
    const me = await owner()
    const moved = await me.api.json(me.api.post(`/api/emails/${me.email}/move`, { folderId: me.archive }))
    expect(moved.status).toBe(200)
    expect((await me.api.get(`/api/emails/${me.email}`)).status).toBe(404)
    const [row] = await t.db.sql`select deleted, move_to from received_emails where id = ${me.email}`
    expect(row).toEqual({ deleted: true, moveTo: 'Archive' })
    expect((await me.api.post(`/api/emails/${me.email}/restore`, {})).status).toBe(200)
    expect((await me.api.get(`/api/emails/${me.email}`)).status).toBe(200)
    const [back] = await t.db.sql`select deleted, move_to from received_emails where id = ${me.email}`
    expect(back).toEqual({ deleted: false, moveTo: null })
  })

  it("answers 404 for another user's message, another account's folder and the message's own folder; 400 for a folder that is not an id", async () => {
    const me = await owner()
    const other = await owner()
    expect((await other.api.post(`/api/emails/${me.email}/move`, { folderId: other.archive })).status).toBe(404)
    expect((await me.api.post(`/api/emails/${me.email}/move`, { folderId: other.archive })).status).toBe(404)
    expect((await me.api.post(`/api/emails/${me.email}/move`, { folderId: me.inbox })).status).toBe(404)
    const bad = await me.api.json(me.api.post(`/api/emails/${me.email}/move`, { folderId: "' or 1=1" }))
    expect(bad.status).toBe(400)
    expect(bad.body.message).toEqual(expect.any(String))
    // none of it moved anything
    const [row] = await t.db.sql`select deleted from received_emails where id = ${me.email}`
    expect(row.deleted).toBe(false)
    // another user's restore is not found either
    expect((await me.api.post(`/api/emails/${me.email}/move`, { folderId: me.archive })).status).toBe(200)
    expect((await other.api.post(`/api/emails/${me.email}/restore`, {})).status).toBe(404)
  })
})
