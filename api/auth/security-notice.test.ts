// Security notices leave like the service's other mail: through the outgoing queue, sent by the
// real delivery worker to the relay, From no-reply, DKIM-signed for the first mail domain.
import { dkimVerify } from 'mailauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { enableTotp } from '../../scripts/testing/second-factor.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv({ worker: true })
})
afterAll(async () => {
  await env?.close()
})

const relayed = (to: string, subject: string) => env.relay.messages.find((m) => m.to.includes(to) && m.raw.toString().includes(`Subject: ${subject}`))

describe('security notices', () => {
  it('mails the owner when two-factor authentication goes on, recovery codes are regenerated or used, and it goes off: DKIM-signed through the relay', async () => {
    const app = env.app()
    const client = new ApiClient(app)
    const { email, password } = await client.register()
    const { authenticator } = await enableTotp(client)
    expect((await client.post('/api/account/recovery-codes')).status).toBe(201)
    const codes = (await client.json(client.post('/api/account/recovery-codes'))).body.recoveryCodes as string[]
    const other = new ApiClient(app)
    expect((await other.post('/api/auth/login', { email, password })).status).toBe(200)
    expect((await other.post('/api/auth/second-factor', { code: codes[0] })).status).toBe(200)
    expect((await client.request('DELETE', '/api/account/totp', { password, code: authenticator.code(1) })).status).toBe(200)

    for (const subject of ['Veilmail: Two-factor authentication is on', 'Veilmail: New recovery codes', 'Veilmail: A recovery code was used', 'Veilmail: Two-factor authentication is off']) {
      await expect.poll(() => relayed(email, subject), { timeout: 30_000, interval: 100 }).toBeDefined()
      const message = relayed(email, subject)!
      expect(message.from).toBe('no-reply@veilmail.test')
      const verified = await dkimVerify(message.raw, { resolver: env.resolver })
      expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['veilmail.test', 'pass']])
    }
  }, 60_000)
})
