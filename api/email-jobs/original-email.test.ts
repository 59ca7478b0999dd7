// POST /api/email-jobs with `original` (issue 26 items 2, 3): a reply carries the answered
// message's In-Reply-To and References, a forward the attachments the user kept; only the user's
// own messages and their own attachments, and no id from a message's headers that could carry a
// second header field.
import { randomUUID } from 'node:crypto'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertAttachments } from '../../db/received-attachments.ts'
import { openEmailJobContent } from '../../lib/email-job-content.ts'
import { receivedMailBox } from '../../lib/received-mail-box.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** A user with an alias and one synced account; `message` stores a synced message of theirs. */
async function mailUser() {
  const api = new ApiClient(t.app)
  const { user } = await api.register()
  const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: `orig-${user.id.slice(0, 8)}`, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
  const provider = await api.json(api.post('/api/email-providers', {
    provider: 'other', email: `${user.id.slice(0, 8)}@mail.example`,
    encryptedCredentials: Buffer.from(JSON.stringify({ email: 'x@mail.example', password: 'pw', host: 'imap.mail.example', port: 993, secure: true })).toString('base64'),
  }))
  const providerId = provider.body.provider.id as string
  const [folder] = await t.db.sql<{ id: string }[]>`insert into mailbox_folders (provider_id, path, enabled) values (${providerId}, 'INBOX', true) returning id`
  let uid = 0
  const message = async (m: { messageId: string | null; inReplyTo?: string | null; references?: string[] }, files: { name: string; content: Buffer }[] = []) => {
    const [row] = await t.db.sql<{ id: string }[]>`
      insert into received_emails (user_id, provider_id, folder_id, uid, thread_id, received_at, size, message_id, in_reply_to, reference_ids, subject)
      values (${user.id}, ${providerId}, ${folder.id}, ${++uid}, gen_random_uuid(), now(), 100, ${m.messageId}, ${m.inReplyTo ?? null}, ${m.references ?? []}, 'Original')
      returning id`
    const box = receivedMailBox(t.config)
    const attachments = files.map((f) => {
      const id = randomUUID()
      return { id, emailId: row.id, userId: user.id, filename: f.name, contentType: 'application/octet-stream', contentId: null, size: f.content.length, content: box.seal(f.content, id) }
    })
    await insertAttachments(t.db.sql, attachments)
    return { id: row.id, attachmentIds: attachments.map((a) => a.id) }
  }
  const send = (original: unknown, over: Record<string, unknown> = {}) =>
    api.json(api.post('/api/email-jobs', { to: 'friend@example.org', subject: 'Re: Original', body: 'Answer', fromAliasId: alias.id, original, ...over }))
  return { api, user, message, send }
}

/** The message a job will send, as a mail program reads it. */
async function queued(jobId: string) {
  const [job] = await t.db.sql<{ content: Buffer; originalEmailId: string | null; originalAction: string | null }[]>`
    select content, original_email_id, original_action from email_jobs where id = ${jobId}`
  const content = openEmailJobContent(t.config.secretKey, jobId, job.content)
  if (content.kind !== 'raw') throw new Error('not raw')
  const raw = Buffer.from(content.raw, 'base64')
  return { job, raw, parsed: await simpleParser(raw) }
}

describe('replies and forwards of a synced message', () => {
  it("threads a reply under the original: In-Reply-To its Message-ID, References its References and its Message-ID", async () => {
    const me = await mailUser()
    const original = await me.message({ messageId: '<c@x.example>', inReplyTo: '<b@x.example>', references: ['<a@x.example>', '<b@x.example>'] })
    const sent = await me.send({ emailId: original.id, action: 'reply' })
    expect(sent.status).toBe(201)
    const { job, parsed } = await queued(sent.body.jobId)
    expect(job).toMatchObject({ originalEmailId: original.id, originalAction: 'reply' })
    expect(parsed.inReplyTo).toBe('<c@x.example>')
    expect(parsed.references).toEqual(['<a@x.example>', '<b@x.example>', '<c@x.example>'])
  })

  it('puts no header of a hostile Message-ID into the reply', async () => {
    const me = await mailUser()
    const original = await me.message({ messageId: '<c@x.example>\r\nBcc: victim@example.com', references: ['<a@x.example>\nX-Evil: 1', '<ok@x.example>'] })
    const sent = await me.send({ emailId: original.id, action: 'reply' })
    expect(sent.status).toBe(201)
    const { raw, parsed } = await queued(sent.body.jobId)
    expect(raw.toString()).not.toMatch(/victim|X-Evil/)
    expect(parsed.inReplyTo).toBeUndefined()
    expect(parsed.references).toBe('<ok@x.example>')
  })

  it('forwards the attachments named, byte for byte, and only those', async () => {
    const me = await mailUser()
    const original = await me.message({ messageId: '<f@x.example>' }, [{ name: 'a.bin', content: Buffer.from('first file') }, { name: 'b.bin', content: Buffer.from('second file') }])
    const sent = await me.send({ emailId: original.id, action: 'forward', attachmentIds: [original.attachmentIds[1]] }, { subject: 'Fwd: Original' })
    expect(sent.status).toBe(201)
    const { job, parsed } = await queued(sent.body.jobId)
    expect(job).toMatchObject({ originalEmailId: original.id, originalAction: 'forward' })
    expect(parsed.inReplyTo).toBeUndefined()
    expect(parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['b.bin', 'second file']])
  })

  it("answers 404 for another user's message or attachment, and for an attachment of another message", async () => {
    const me = await mailUser()
    const other = await mailUser()
    const theirs = await other.message({ messageId: '<theirs@x.example>' }, [{ name: 'secret.txt', content: Buffer.from('their secret') }])
    const mine = await me.message({ messageId: '<mine@x.example>' }, [{ name: 'mine.txt', content: Buffer.from('mine') }])
    const mineToo = await me.message({ messageId: '<mine2@x.example>' }, [{ name: 'other.txt', content: Buffer.from('other') }])
    expect((await me.send({ emailId: theirs.id, action: 'reply' })).status).toBe(404)
    expect((await me.send({ emailId: theirs.id, action: 'forward', attachmentIds: theirs.attachmentIds })).status).toBe(404)
    expect((await me.send({ emailId: mine.id, action: 'forward', attachmentIds: theirs.attachmentIds })).status).toBe(404)
    expect((await me.send({ emailId: mine.id, action: 'forward', attachmentIds: mineToo.attachmentIds })).status).toBe(404)
    expect((await me.send({ emailId: randomUUID(), action: 'reply' })).status).toBe(404)
    // nothing was queued for any of them
    expect((await t.db.sql`select 1 from email_jobs where user_id = ${me.user.id} and source = 'compose'`).length).toBe(0)
  })

  it('refuses bad input with 400: attachments on a reply, attachments sent encrypted, ids that are not ids', async () => {
    const me = await mailUser()
    const original = await me.message({ messageId: '<g@x.example>' }, [{ name: 'a.bin', content: Buffer.from('a') }])
    const onReply = await me.send({ emailId: original.id, action: 'reply', attachmentIds: original.attachmentIds })
    expect(onReply.status).toBe(400)
    expect(onReply.body.errors.original).toEqual(['Only a forward carries the original attachments'])
    const encrypted = await me.send({ emailId: original.id, action: 'forward', attachmentIds: original.attachmentIds }, {
      useEncryption: true, recipientPublicKey: 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p',
    })
    expect(encrypted.status).toBe(400)
    expect(encrypted.body.errors.original[0]).toMatch(/cannot be sent encrypted/)
    for (const bad of [{ emailId: 'x', action: 'reply' }, { emailId: original.id, action: 'delete' }, { emailId: original.id, action: 'forward', attachmentIds: ["' or 1=1"] }]) {
      const res = await me.send(bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.message).toEqual(expect.any(String))
    }
  })
})
