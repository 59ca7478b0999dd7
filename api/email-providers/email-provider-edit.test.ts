// PATCH /api/email-providers/{id}: an account whose first login failed is fixed instead of removed,
// against a private Dovecot and the real sync worker: the next sync's login is the check. Hostile
// input is refused with { message, errors }; another user's account is not theirs to edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCredentials } from '../../lib/mailbox-credentials.ts'
import { getProviderForSync } from '../../db/email-providers.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()
// the server's login is a user name, not the address (as on many hosted servers)
const ADDRESS = 'pat@mail.example'
const LOGIN = 'pat-login'
let env: SyncEnv
let password: string

beforeAll(async () => {
  if (!run) return
  env = await startSyncEnv({ dovecot: { starttls: true } })
  password = env.dovecot.addUser(LOGIN)
  env.dovecot.writeMessages(LOGIN, [{ raw: sampleMail(1).raw }, { raw: sampleMail(2).raw }])
}, 90_000)
afterAll(async () => {
  await env?.close()
})

const edit = (client: ApiClient, providerId: string, body: unknown) => client.json(client.patch(`/api/email-providers/${providerId}`, body))

describe.skipIf(!run)('editing a connected account', () => {
  it('fixes an account whose first login failed: user name and password, then the sync logs in', async () => {
    const { user, dovecot, t } = env
    // added with the address as the login and a wrong password: the first login fails and stops the schedule
    const { providerId, jobId } = await addImapAccount(user, dovecot, ADDRESS, 'not the password')
    expect((await syncJobFinished(user, providerId, jobId)).status).toBe('failed')
    const failed = (await user.json(user.get('/api/email-providers'))).body.providers[0]
    expect(failed).toMatchObject({ state: 'error', needsAttention: true, username: ADDRESS })

    // the user name the server knows and the password: the sync logs in and fetches the mail
    let res = await edit(user, providerId, { username: LOGIN, password })
    expect(res.status).toBe(202)
    expect(res.body.provider).toMatchObject({ state: 'connecting', needsAttention: false, lastError: null, username: LOGIN })
    let done = await syncJobFinished(user, providerId, res.body.jobId)
    expect(done).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 2 } })
    expect(done.provider).toMatchObject({ state: 'idle', username: LOGIN, host: dovecot.host, port: dovecot.port, secure: true })

    // the server moved to STARTTLS on another port; the login left out stays as saved
    res = await edit(user, providerId, { port: dovecot.plainPort, secure: false })
    expect(res.status).toBe(202)
    done = await syncJobFinished(user, providerId, res.body.jobId)
    expect(done).toMatchObject({ status: 'done', provider: { state: 'idle', username: LOGIN, port: dovecot.plainPort, secure: false } })
    // sealed at rest, with the login the server took
    const row = (await getProviderForSync(t.db.sql, providerId))!
    expect(row.credentials.includes(Buffer.from(password))).toBe(false)
    expect(openCredentials(t.config, row)).toMatchObject({ email: LOGIN, password, host: dovecot.host, port: dovecot.plainPort, secure: false })
    // the list never carries the password
    expect(JSON.stringify((await user.json(user.get('/api/email-providers'))).body)).not.toContain(password)
  }, 120_000)

  it('refuses hostile and empty edits with their field, and another server for a preset', async () => {
    const { user, t } = env
    const { providerId } = await addImapAccount(user, { host: '127.0.0.1', port: 9 }, 'other@mail.example', 'pw')
    const refused = async (body: unknown, field: string) => {
      const res = await edit(user, providerId, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(typeof res.body.message).toBe('string')
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify(body)).toContain(field)
    }
    await refused({ username: 'pat\r\nA1 LOGOUT' }, 'username') // an IMAP command smuggled in the login
    await refused({ username: 'x'.repeat(255) }, 'username')
    await refused({ host: 'imap.example.com/../x' }, 'host')
    await refused({ host: "imap'; drop table email_providers;--" }, 'host')
    await refused({ password: 'p'.repeat(1025) }, 'password')
    await refused({ secure: 'yes' }, 'secure')
    await refused({ host: '' }, 'host')
    expect((await edit(user, providerId, {})).status).toBe(400)
    expect((await edit(user, providerId, { nothing: 'known' })).status).toBe(400)
    expect((await user.json(user.patch(`/api/email-providers/${providerId}`, '[1,2]' as unknown))).status).toBe(400)
    // nothing of it was saved
    const row = (await getProviderForSync(t.db.sql, providerId))!
    expect(openCredentials(t.config, row)).toMatchObject({ email: 'other@mail.example', password: 'pw', host: '127.0.0.1', port: 9 })

    // Gmail's server is Gmail's
    const gmail = await user.json(user.post('/api/email-providers', {
      provider: 'gmail', email: 'me@gmail.com', encryptedCredentials: Buffer.from(JSON.stringify({ email: 'me@gmail.com', password: 'app pw' })).toString('base64'),
    }))
    await expect(edit(user, gmail.body.provider.id, { host: 'imap.evil.example' })).resolves.toMatchObject({ status: 400, body: { errors: { host: [expect.any(String)] } } })
    // an empty user name is the address again, an empty password keeps the stored one
    const res = await edit(user, gmail.body.provider.id, { username: '', password: '' })
    expect(res.status).toBe(202)
    expect(openCredentials(t.config, (await getProviderForSync(t.db.sql, gmail.body.provider.id))!)).toMatchObject({ email: 'me@gmail.com', password: 'app pw', host: 'imap.gmail.com' })
  })

  it("answers 404 for another user's account and leaves it as it was", async () => {
    const { user, t } = env
    const { providerId } = await addImapAccount(user, { host: '127.0.0.1', port: 9 }, 'mine@mail.example', 'secret')
    const other = new ApiClient(t.app)
    await other.register()
    const res = await edit(other, providerId, { password: 'taken over', host: 'imap.attacker.example' })
    expect(res.status).toBe(404)
    expect(openCredentials(t.config, (await getProviderForSync(t.db.sql, providerId))!)).toMatchObject({ password: 'secret', host: '127.0.0.1' })
    // an id that is no account at all
    expect((await edit(other, crypto.randomUUID(), { password: 'x' })).status).toBe(404)
  })
})
