// SMTP AUTH limits under concurrency: nodemailer clients against the real submission server.
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { createSubmissionServers, type SubmissionServers } from './submission-server.ts'

let t: TestApp
let servers: SubmissionServers
let port: number
let alias: { address: string; password: string }

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'smtp-auth-ip=5/900' })
  servers = createSubmissionServers({ sql: t.db.sql, boss: t.boss, config: t.config })
  port = (await servers.listen({ starttls: 0, tls: 0 }, '127.0.0.1')).tls
  const api = new ApiClient(t.app)
  const { user } = await api.register()
  const name = `auth-${user.id.slice(0, 8)}`
  const created = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: name, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
  alias = { address: `${name}@veilmail.test`, password: (await api.json(api.post('/api/smtp-credentials', { aliasId: created.id }))).body.credential.password }
}, 60_000)
afterAll(async () => {
  await servers.close()
  await t.close()
})

/** AUTH over implicit TLS; resolves to the server's answer code. */
const tryAuth = (pass: string) =>
  nodemailer.createTransport({ host: '127.0.0.1', port, secure: true, auth: { user: alias.address, pass }, tls: { rejectUnauthorized: false }, connectionTimeout: 30_000, greetingTimeout: 30_000 })
    .verify().then(() => ({ code: 235, response: '' }), (error: { responseCode?: number; response?: string }) => ({ code: error.responseCode ?? 0, response: error.response ?? '' }))

describe('SMTP AUTH limits', () => {
  it('checks at most the limit of 100 concurrent wrong passwords, answers the rest 454 with a retry hint, and a correct password past the limit does not get in', async () => {
    const guesses = Array.from({ length: 100 }, (_, i) => tryAuth(`wrong-${i}`))
    await expect.poll(async () => (await t.db.sql`select count from rate_limits where action_type = 'smtp-auth-ip'`)[0]?.count ?? 0, { timeout: 60_000 }).toBeGreaterThanOrEqual(5)
    const late = await tryAuth(alias.password)
    const answers = await Promise.all(guesses)
    const checked = answers.filter((a) => a.code === 535)
    const refused = answers.filter((a) => a.code === 454)
    expect(checked.length).toBeLessThanOrEqual(5)
    expect(refused).toHaveLength(100 - checked.length)
    for (const a of refused) expect(a.response).toMatch(/^454 4\.7\.0 Too many failed authentication attempts, try again in \d+ seconds/)
    expect(late.code).toBe(454)

    // The window passed: the owner's client gets in, and its success is not counted.
    await t.db.sql`update rate_limits set window_start = now() - interval '1 hour' where action_type = 'smtp-auth-ip'`
    expect(await tryAuth(alias.password)).toEqual({ code: 235, response: '' })
    for (let i = 0; i < 6; i++) expect((await tryAuth(alias.password)).code).toBe(235)
  }, 120_000)
})
