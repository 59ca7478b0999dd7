import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { latestLink, mailboxOf, tokenOf } from '../../scripts/testing/mailbox.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { accountCleanup } from '../../workers/delivery/account-cleanup.ts'
import { queues } from '../../db/queues.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('account deletion', () => {
  it('ends every session and alias at once, frees the e-mail, and a job erases the rest', async () => {
    const laptop = new ApiClient(t.app)
    const { email, password, user } = await laptop.register()
    const phone = new ApiClient(t.app)
    await phone.post('/api/auth/login', { email, password })
    const [alias] = await t.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, ${'del-' + user.id.slice(0, 8)}, 'veilmail.test', ${email}) returning id`
    expect((await laptop.json(laptop.get('/api/account-stats'))).body).toEqual({ aliases: 1, forwarded: 0, replied: 0, keys: 0, jobs: 0 })
    // counters live in several shard rows per alias; each alias still counts once
    await t.db.sql`insert into alias_counters (alias_id, shard, forwarded, replied) values (${alias.id}, 0, 3, 1), (${alias.id}, 5, 4, 0)`
    await laptop.post('/api/email-jobs', { to: 'x@example.org', subject: 's', body: 'b', fromAliasId: alias.id })
    expect((await laptop.json(laptop.get('/api/account-stats'))).body).toEqual({ aliases: 1, forwarded: 7, replied: 1, keys: 0, jobs: 1 })

    const res = await laptop.json(laptop.delete('/api/account'))
    expect(res).toEqual({ status: 200, body: { message: 'Account deleted' } })
    expect((await laptop.get('/api/auth/session')).status).toBe(401)
    expect((await phone.get('/api/auth/session')).status).toBe(401)
    expect(await t.db.sql`select id from sessions where user_id = ${user.id}`).toHaveLength(0)
    expect(await t.db.sql`select id from aliases where user_id = ${user.id}`).toHaveLength(0)
    expect((await new ApiClient(t.app).post('/api/auth/login', { email, password })).status).toBe(401)

    const [job] = await t.db.sql<{ id: string }[]>`select id from pgboss.job where name = ${queues.accountCleanup.name} and data->>'userId' = ${user.id}`
    expect(job).toBeDefined()
    await accountCleanup(t.db.sql, { userId: user.id })
    expect(await t.db.sql`select id from users where id = ${user.id}`).toHaveLength(0)

    // the address can be used for a new account
    expect((await new ApiClient(t.app).register(email, password)).user.id).not.toBe(user.id)
  })

  it('needs a session', async () => {
    const client = new ApiClient(t.app)
    expect(await client.json(client.delete('/api/account'))).toEqual({ status: 401, body: { message: 'Authentication required' } })
    expect((await client.get('/api/account-stats')).status).toBe(401)
  })
})

describe('cookies behind https', () => {
  it('uses the __Host- prefix and Secure', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://veilmail.example' })
    try {
      const client = new ApiClient(secure.app, 'https://veilmail.example')
      // the session starts when the link mailed at registration is followed
      const email = `${crypto.randomUUID()}@example.com`
      expect((await client.post('/api/auth/register', { email, password: 'longenough' })).status).toBe(202)
      const link = await latestLink(mailboxOf(secure.app)!, email, '/verify-email')
      expect(link.startsWith('https://veilmail.example/verify-email?token=')).toBe(true)
      const res = await client.post('/api/auth/verify-email', { token: tokenOf(link) })
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-veilmail_session='))!
      expect(cookie).toMatch(/; Secure/)
      expect(cookie).toMatch(/HttpOnly/)
      expect(cookie).toMatch(/Path=\//)
      expect(cookie).not.toMatch(/Domain=/)
    } finally {
      await secure.close()
    }
  })
})
