// The body search's limit per user (mail-search-user): each search logs in to every account's
// IMAP server, so past the limit a search answers from what is stored only, and says so. Checked
// with searches sent all at once, and on the server: Dovecot saw no more logins than allowed.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dovecotAvailable } from '../../scripts/testing/dovecot.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()
const LOGIN = 'limited@example.test'
const CRLF = '\r\n'

describe.skipIf(!run)('the body search limit', () => {
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv({ env: () => ({ RATE_LIMITS: 'mail-search-user=5/3600' }) })
  })
  afterAll(() => env?.close())

  it('asks the server at most the allowed number of times, however many searches come at once', async () => {
    const { dovecot, user } = env
    const password = dovecot.addUser(LOGIN)
    await dovecot.append(LOGIN, [{ raw: ['From: Ann <ann@example.org>', `To: ${LOGIN}`, 'Subject: Hello', 'Message-ID: <limit@example.org>', '', 'A quokka walked by.', ''].join(CRLF) }])
    const added = await addImapAccount(user, dovecot, LOGIN, password)
    expect(await syncJobFinished(user, added.providerId, added.jobId)).toMatchObject({ status: 'done' })
    const logins = () => readFileSync(dovecot.logFile, 'utf8').split('\n').filter((l) => l.includes('Login: user=<limited@example.test>')).length
    const before = logins()

    const answers = await Promise.all(Array.from({ length: 12 }, () => user.json(user.get('/api/emails?by=conversation&q=quokka'))))
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200))
    const searched = answers.filter((a) => a.body.unsearched.length === 0)
    const limited = answers.filter((a) => a.body.unsearched.length > 0)
    expect([searched.length, limited.length]).toEqual([5, 7])
    for (const a of searched) expect(a.body.emails.map((e: { subject: string }) => e.subject)).toEqual(['Hello'])
    for (const a of limited) {
      expect(a.body.emails).toEqual([])
      expect(a.body.unsearched).toEqual([{ providerId: added.providerId, email: LOGIN, reason: 'too many searches in a short time; try again in a minute' }])
    }
    // on the server: five searches logged in, no more
    await expect.poll(logins).toBe(before + 5)
    // what is stored is still searched past the limit
    const stored = await user.json(user.get('/api/emails?by=conversation&q=hello'))
    expect(stored.body.emails.map((e: { subject: string }) => e.subject)).toEqual(['Hello'])
  })
})
