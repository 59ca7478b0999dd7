// Outlook accounts end to end: Microsoft sign-in against a local stand-in of Microsoft's
// endpoints, then the sync logging in to a private Dovecot with SASL XOAUTH2 (its oauth2 passdb
// asks the stand-in whether each access token is live), renewing tokens that ran out, and marking
// the account when Microsoft refuses the renewal.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dueProviderIds, getProviderForSync } from '../../db/email-providers.ts'
import { onLogEvent } from '../../lib/log.ts'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { connectOutlook, syncJobFinished, syncNow } from '../../scripts/testing/mailbox-accounts.ts'
import { startMicrosoftStandIn, type MicrosoftStandIn } from '../../scripts/testing/microsoft-stand-in.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import type { TestApp } from '../../scripts/testing/test-app.ts'
import { OUTLOOK_EXPIRED_MARKER, OUTLOOK_EXPIRED_MESSAGE } from '../../shared/outlook-connection.ts'
import { openCredentials } from '../../lib/mailbox-credentials.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()

describe.skipIf(!run)('Outlook accounts over XOAUTH2', () => {
  let microsoft: MicrosoftStandIn
  let dovecot: Dovecot
  let t: TestApp
  let user: ApiClient
  // every API answer and log line of the suite, searched for tokens at the end
  const seen: string[] = []
  onLogEvent((level, event, fields) => seen.push(JSON.stringify({ level, event, ...fields })))

  let env: SyncEnv
  beforeAll(async () => {
    microsoft = await startMicrosoftStandIn()
    env = await startSyncEnv({
      dovecot: { oauth2IntrospectionUrl: microsoft.introspectionUrl },
      env: (dovecot) => ({ ...microsoft.env, MICROSOFT_IMAP_HOST: dovecot.host, MICROSOFT_IMAP_PORT: String(dovecot.port) }),
    })
    ;({ dovecot, t, user } = env)
  })
  afterAll(async () => {
    await env?.close()
    await microsoft?.close()
  })

  /** A mailbox on the Dovecot with `count` messages, connected through Microsoft sign-in and synced once. */
  async function connectedMailbox(name: string, count: number) {
    const email = `${name}@outlook.test`
    const password = dovecot.addUser(email) // for "another client" only; the sync never has it
    dovecot.writeMessages(email, Array.from({ length: count }, (_, i) => ({ raw: sampleMail(i * 8).raw })))
    const issued = microsoft.issued.length
    const back = await connectOutlook(user, microsoft, { email })
    seen.push(back.toString())
    expect(back.searchParams.get('status')).toBe('success')
    const providerId = back.searchParams.get('providerId')!
    const job = await syncJobFinished(user, providerId, back.searchParams.get('jobId')!)
    seen.push(JSON.stringify(job))
    const [accessToken, refreshToken] = microsoft.issued.slice(issued, issued + 2)
    return { email, password, providerId, job, accessToken, refreshToken }
  }

  const storedTokens = async (providerId: string) => {
    const creds = openCredentials(t.config, (await getProviderForSync(t.db.sql, providerId))!)
    if (!('tokenType' in creds)) throw new Error('not an OAuth account')
    return { accessToken: creds.accessToken, refreshToken: creds.refreshToken }
  }
  const provider = async (providerId: string) => {
    const { body } = await user.json(user.get('/api/email-providers'))
    seen.push(JSON.stringify(body))
    return body.providers.find((p: any) => p.id === providerId)
  }
  const dovecotLog = () => readFileSync(path.join(dovecot.dir, 'dovecot.log'), 'utf8')

  /** Flags another IMAP client sees, by subject. */
  async function serverFlags(email: string) {
    const client = await dovecot.client(email)
    try {
      const lock = await client.getMailboxLock('INBOX', { readOnly: true })
      try {
        const flags = new Map<string, string[]>()
        for await (const m of client.fetch('1:*', { flags: true, envelope: true })) flags.set(m.envelope?.subject ?? '', [...(m.flags ?? [])].sort())
        return flags
      } finally {
        lock.release()
      }
    } finally {
      await client.logout()
    }
  }

  it('syncs over XOAUTH2 with the token from sign-in, renews a token the server refuses, and saves the renewed tokens sealed', async () => {
    const refreshes = microsoft.grants.refresh_token
    const { email, providerId, job, accessToken, refreshToken } = await connectedMailbox('ada', 3)
    expect(job).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 3 }, error: null })
    expect(await provider(providerId)).toMatchObject({ provider: 'outlook', email, host: dovecot.host, port: dovecot.port, state: 'idle', lastError: null })
    expect(microsoft.introspected).toContain(accessToken)
    expect(dovecotLog()).toMatch(new RegExp(`Login: user=<${email}>, method=XOAUTH2`))
    expect(microsoft.grants.refresh_token).toBe(refreshes)

    // the access token stops working (its hour is up): renewed, then the sync goes on
    microsoft.expireAccessTokens()
    await dovecot.append(email, [{ raw: sampleMail(100).raw }])
    const renewed = await syncNow(user, providerId)
    seen.push(JSON.stringify(renewed))
    expect(renewed).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 1 }, error: null })
    expect(microsoft.grants.refresh_token).toBe(refreshes + 1)
    const stored = await storedTokens(providerId)
    expect(stored.accessToken).not.toBe(accessToken)
    expect(stored.refreshToken).not.toBe(refreshToken) // the stand-in rotates refresh tokens: the new one had to be saved
    expect(microsoft.introspected.at(-1)).toBe(stored.accessToken)

    // the saved tokens serve the next sync and the write-back, with no renewal
    expect(await syncNow(user, providerId)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 0 } })
    const { body } = await user.json(user.get(`/api/emails?providerId=${providerId}&limit=50&offset=0`))
    const target = body.emails[0]
    expect((await user.patch(`/api/emails/${target.id}`, { isStarred: true })).status).toBe(200)
    await expect.poll(async () => (await serverFlags(email)).get(target.subject), { timeout: 30_000, interval: 200 }).toContain('\\Flagged')
    expect(microsoft.grants.refresh_token).toBe(refreshes + 1)
  })

  it('renews an access token that is about to run out before logging in with it', async () => {
    microsoft.accessTokenSeconds = 60
    try {
      const refreshes = microsoft.grants.refresh_token
      const { providerId, job, accessToken } = await connectedMailbox('grace', 2)
      expect(job).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 2 } })
      expect(microsoft.grants.refresh_token).toBe(refreshes + 1)
      expect(microsoft.introspected).not.toContain(accessToken)
      expect(microsoft.introspected).toContain((await storedTokens(providerId)).accessToken)
    } finally {
      microsoft.accessTokenSeconds = 3600
    }
  })

  it('renews once when a sync and a write-back find the token expired at the same time', async () => {
    const { email, providerId } = await connectedMailbox('alan', 4)
    const { body } = await user.json(user.get(`/api/emails?providerId=${providerId}&limit=50&offset=0`))
    microsoft.expireAccessTokens()
    const refreshes = microsoft.grants.refresh_token
    const [starred, sync] = await Promise.all([
      user.patch(`/api/emails/${body.emails[1].id}`, { isStarred: true }),
      user.json(user.post(`/api/email-providers/${providerId}/sync`)),
    ])
    expect(starred.status).toBe(200)
    expect(await syncJobFinished(user, providerId, sync.body.jobId)).toMatchObject({ status: 'done', error: null })
    await expect.poll(async () => (await serverFlags(email)).get(body.emails[1].subject), { timeout: 30_000, interval: 200 }).toContain('\\Flagged')
    expect(microsoft.grants.refresh_token).toBe(refreshes + 1)
    // (the write-back queues a sync of its own, which may be running now)
    expect(await provider(providerId)).toMatchObject({ lastError: null, needsAttention: false })
  })

  it('keeps the schedule when Microsoft cannot be reached, and marks the account Outlook-expired when it refuses the renewal; signing in again brings it back', async () => {
    const { email, providerId } = await connectedMailbox('barbara', 2)

    // an outage is retried, not blamed on the user
    microsoft.expireAccessTokens()
    microsoft.tokenEndpointDown = true
    try {
      const { body } = await user.json(user.post(`/api/email-providers/${providerId}/sync`))
      await expect.poll(async () => (await user.json(user.get(`/api/email-providers/${providerId}/sync-jobs/${body.jobId}`))).body, { timeout: 30_000, interval: 100 })
        .toMatchObject({ status: 'queued', error: 'Microsoft could not be reached to renew the Outlook sign-in. It will be tried again.' })
      expect(await provider(providerId)).toMatchObject({ needsAttention: false })
      expect(await dueProviderIds(t.db.sql, 0, 1000)).toContain(providerId)
    } finally {
      microsoft.tokenEndpointDown = false
    }
    await t.db.sql`delete from pgboss.job where singleton_key = ${providerId}` // the retry would wait 30 s
    await t.db.sql`update mailbox_sync_jobs set status = 'failed' where provider_id = ${providerId} and status = 'queued'`

    // the consent is withdrawn: the renewal is refused
    microsoft.revokeRefreshTokens()
    const refused = await syncNow(user, providerId)
    seen.push(JSON.stringify(refused))
    expect(refused).toMatchObject({ status: 'failed', error: OUTLOOK_EXPIRED_MESSAGE })
    const marked = await provider(providerId)
    expect(marked).toMatchObject({ state: 'error', needsAttention: true })
    expect(marked.lastError.startsWith(OUTLOOK_EXPIRED_MARKER)).toBe(true)
    expect(await dueProviderIds(t.db.sql, 0, 1000)).not.toContain(providerId)
    // a write-back meanwhile is kept for later, not lost
    const { body } = await user.json(user.get(`/api/emails?providerId=${providerId}&limit=50&offset=0`))
    expect((await user.patch(`/api/emails/${body.emails[0].id}`, { isRead: true })).status).toBe(200)

    // signing in again: new tokens on the same account, its mail kept, the schedule back on
    const again = await connectOutlook(user, microsoft, { email })
    expect(again.searchParams.get('status')).toBe('success')
    expect(again.searchParams.get('providerId')).toBe(providerId)
    expect(await syncJobFinished(user, providerId, again.searchParams.get('jobId')!)).toMatchObject({ status: 'done', syncResult: { newEmailsCount: 0 }, error: null })
    // (the write-back kept meanwhile runs now, and queues a sync of its own, which may be running)
    expect(await provider(providerId)).toMatchObject({ lastError: null, needsAttention: false })
    expect(await dueProviderIds(t.db.sql, 0, 1000)).toContain(providerId)
    await expect.poll(async () => (await serverFlags(email)).get(body.emails[0].subject), { timeout: 30_000, interval: 200 }).toContain('\\Seen')
    await expect.poll(() => provider(providerId), { timeout: 30_000, interval: 200 }).toMatchObject({ state: 'idle', lastError: null, needsAttention: false })
  }, 120_000) // an outage, a refusal and a new sign-in, each waited for in turn

  it('never shows a token in an API answer or a log line', () => {
    const all = seen.join('\n')
    expect(microsoft.issued.length).toBeGreaterThan(8)
    for (const token of microsoft.issued) expect(all).not.toContain(token)
  })
})
