// Sending from a mail client: nodemailer → our submission server (STARTTLS / implicit TLS,
// AUTH) → email jobs → delivery worker → the relay stand-in.
import nodemailer from 'nodemailer'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../scripts/testing/mail-env.ts'
import { waitFor } from '../scripts/testing/mail-stand-ins.ts'
import { createSubmissionServers, type SubmissionServers } from './submission-server.ts'

let env: MailEnv
let servers: SubmissionServers
let ports: { starttls: number; tls: number }
let api: ApiClient
const aliases: Record<'a' | 'b', { address: string; password: string; aliasId: string }> = {} as never

beforeAll(async () => {
  env = await createMailEnv({ env: { RATE_LIMITS: 'smtp-auth-ip=5/900,smtp-send-credential=20/3600' } })
  servers = createSubmissionServers({ sql: env.db.sql, boss: env.boss, config: env.config })
  ports = await servers.listen({ starttls: 0, tls: 0 }, '127.0.0.1')
  api = new ApiClient(env.app())
  const { user } = await api.register()
  for (const key of ['a', 'b'] as const) {
    const name = `smtp-${key}-${user.id.slice(0, 6)}`
    const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: name, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
    const credential = (await api.json(api.post('/api/smtp-credentials', { aliasId: alias.id }))).body.credential
    aliases[key] = { address: `${name}@veilmail.test`, password: credential.password, aliasId: alias.id }
  }
}, 60_000)
afterAll(async () => {
  await servers.close()
  await env.close()
})

const client = (auth: { user: string; pass: string } | undefined, options: { port?: number; secure?: boolean; ignoreTLS?: boolean } = {}) =>
  nodemailer.createTransport({
    host: '127.0.0.1', port: options.port ?? ports.starttls, secure: options.secure ?? false, ignoreTLS: options.ignoreTLS,
    requireTLS: !options.ignoreTLS && !options.secure, auth, tls: { rejectUnauthorized: false }, connectionTimeout: 5000,
  })

const relayed = (subject: string) => waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.raw.includes(`Subject: ${subject}`)))

describe('submission server', () => {
  it('takes mail from the alias over STARTTLS with AUTH PLAIN and delivers it', async () => {
    const a = aliases.a
    const subject = `via smtp ${crypto.randomUUID()}`
    const info = await client({ user: a.address, pass: a.password }).sendMail({ from: `Me <${a.address}>`, to: 'friend@example.org', bcc: 'hidden@example.org', subject, text: 'from my mail app' })
    expect(info.response).toMatch(/^250 2\.0\.0 Queued as [0-9a-f-]{36} [0-9a-f-]{36}$/)
    const message = await relayed(subject)
    expect(message.from).toBe(a.address)
    const delivered = await waitFor(env.relay, 'message', () => {
      const all = env.relay.messages.filter((m) => m.raw.includes(`Subject: ${subject}`))
      return all.length === 2 && all
    })
    expect(delivered.map((m) => m.to[0]).sort()).toEqual(['friend@example.org', 'hidden@example.org'])
    const parsed = await simpleParser(message.raw)
    expect(parsed.headers.has('bcc')).toBe(false)
    expect(message.raw.toString()).toContain('DKIM-Signature:')
    expect(parsed.text?.trim()).toBe('from my mail app')
    const [row] = await env.db.sql`select status, message_id from email_jobs where source = 'smtp' and recipient_email = 'friend@example.org' order by created_at desc limit 1`
    await expect.poll(async () => (await env.db.sql`select status from email_jobs where message_id = ${parsed.messageId!}`).map((r) => r.status)).toEqual(['sent', 'sent'])
    expect(row).toBeDefined()
  })

  it('works with implicit TLS on the second port and AUTH LOGIN', async () => {
    const a = aliases.a
    const subject = `via 465 ${crypto.randomUUID()}`
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: ports.tls, secure: true, auth: { user: a.address, pass: a.password, method: 'LOGIN' } as never, tls: { rejectUnauthorized: false } })
    await transport.sendMail({ from: a.address, to: 'friend@example.org', subject, text: 'x' })
    await relayed(subject)
  })

  it("refuses alias A's credentials sending as alias B, in the envelope and in the From header", async () => {
    const a = aliases.a
    const b = aliases.b
    const transport = client({ user: a.address, pass: a.password })
    await expect(transport.sendMail({ envelope: { from: b.address, to: ['x@example.org'] }, from: b.address, to: 'x@example.org', subject: 's', text: 't' }))
      .rejects.toMatchObject({ responseCode: 553 })
    await expect(transport.sendMail({ envelope: { from: a.address, to: ['x@example.org'] }, from: b.address, to: 'x@example.org', subject: 's', text: 't' }))
      .rejects.toMatchObject({ responseCode: 550, response: expect.stringMatching(/From header must be your alias/) })
  })

  it('refuses AUTH before STARTTLS, a wrong password, and too many failures from one address', async () => {
    const a = aliases.a
    await expect(client({ user: a.address, pass: a.password }, { ignoreTLS: true }).verify()).rejects.toMatchObject({ responseCode: 538 })
    for (let i = 0; i < 5; i++) {
      await expect(client({ user: a.address, pass: 'wrong' }).verify()).rejects.toMatchObject({ responseCode: 535 })
    }
    await expect(client({ user: a.address, pass: a.password }).verify()).rejects.toMatchObject({ responseCode: 454 })
    await env.db.sql`delete from rate_limits where action_type = 'smtp-auth-ip'`
    expect(await client({ user: a.address, pass: a.password }).verify()).toBe(true)
  })

  it('stops a paused alias from sending and a regenerated password from being reused', async () => {
    const b = aliases.b
    await api.patch(`/api/aliases/${b.aliasId}/toggle`, { active: false })
    await expect(client({ user: b.address, pass: b.password }).verify()).rejects.toMatchObject({ responseCode: 535 })
    await api.patch(`/api/aliases/${b.aliasId}/toggle`, { active: true })
    const [credential] = (await api.json(api.get(`/api/smtp-credentials/alias/${b.aliasId}`))).body.credentials
    const fresh = (await api.json(api.patch(`/api/smtp-credentials/${credential.id}/alias/${b.aliasId}/regenerate`))).body.credential.password
    await expect(client({ user: b.address, pass: b.password }).verify()).rejects.toMatchObject({ responseCode: 535 })
    expect(await client({ user: b.address, pass: fresh }).verify()).toBe(true)
    await env.db.sql`delete from rate_limits where action_type = 'smtp-auth-ip'`
  })
})
