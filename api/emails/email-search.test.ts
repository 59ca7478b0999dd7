// The inbox search (GET /api/emails?q=…) against a private Dovecot with the real sync: subject,
// sender and recipients from what is stored, words in bodies asked of the user's own IMAP server
// (checked there: Dovecot's own UID SEARCH finds the same message), the operators, LIKE's
// metacharacters taken literally, another user's mail never found, and servers that are down,
// silent or answer a million UIDs left out and named while the stored matches still come.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { hugeSearch, silentAfter } from '../../scripts/testing/hostile-imap-behaviours.ts'
import { DEFAULT_PASSWORD, startHostileImap, type CommandHook, type HostileImap } from '../../scripts/testing/hostile-imap.ts'
import { addImapAccount, syncJobFinished } from '../../scripts/testing/mailbox-accounts.ts'
import { startSyncEnv, type SyncEnv } from '../../scripts/testing/sync-env.ts'

const run = dovecotAvailable()
const CRLF = '\r\n'

function mail(o: { subject: string; from: string; to?: string; cc?: string; body: string; date: string; attachment?: boolean }): string {
  const head = [`From: ${o.from}`, `To: ${o.to ?? 'owner@veilmail.test'}`, ...(o.cc ? [`Cc: ${o.cc}`] : []), `Subject: ${o.subject}`, `Date: ${new Date(o.date).toUTCString()}`,
    `Message-ID: <${crypto.randomUUID()}@search.example>`, 'MIME-Version: 1.0']
  if (!o.attachment) return [...head, 'Content-Type: text/plain; charset=utf-8', '', o.body, ''].join(CRLF)
  return [...head, 'Content-Type: multipart/mixed; boundary="b1"', '', '--b1', 'Content-Type: text/plain; charset=utf-8', '', o.body,
    '--b1', 'Content-Type: application/pdf; name="menu.pdf"', 'Content-Disposition: attachment; filename="menu.pdf"', 'Content-Transfer-Encoding: base64', '',
    Buffer.from('%PDF-1.4 menu').toString('base64'), '--b1--', ''].join(CRLF)
}

/** Only the words' UID SEARCH TEXT (the sync's own SEARCH by UID range passes). */
const onTextSearch = (hook: CommandHook): CommandHook => (command, session) => command.name === 'SEARCH' && /\bTEXT\b/i.test(command.args) ? hook(command, session) : false

describe.skipIf(!run)('searching the inbox', () => {
  let env: SyncEnv
  let dovecot: Dovecot
  let user: ApiClient
  let other: ApiClient
  let providerId: string
  const hostile: HostileImap[] = []

  beforeAll(async () => {
    env = await startSyncEnv({ env: () => ({ SEARCH_TIMEOUT_SECONDS: '3' }) })
    ;({ dovecot, user } = env)
  })
  afterAll(async () => {
    for (const imap of hostile) await imap.close()
    await env?.close()
  })

  // the tests below search what this one stored (expect.poll, which the sync's wait uses, runs only in a test)
  it('syncs two users\' mailboxes', async () => {
    const login = 'searcher@example.test'
    const password = dovecot.addUser(login)
    await dovecot.append(login, [
      { raw: mail({ subject: 'Quarterly figures', from: 'Alice Liddell <alice@wonder.example>', body: 'The zebracorn numbers are attached below.', date: '2026-01-10T09:00:00Z' }) },
      { raw: mail({ subject: 'Lunch plans', from: 'Bob Stone <bob@quarry.example>', body: 'Tuesday at noon?', date: '2026-02-03T12:00:00Z', attachment: true }) },
      { raw: mail({ subject: 'Invoice 100% paid_in_full', from: 'Shop <deals@shop.example>', body: 'Thanks for your order.', date: '2026-02-20T08:00:00Z' }), flags: 'SF' },
      { raw: mail({ subject: 'Garden party', from: 'Carol Danvers <carol@sky.example>', to: 'friends@sky.example', cc: 'Dana Scully <dana@bureau.example>', body: 'Bring a hat.', date: '2026-03-01T10:00:00Z' }), flags: 'S' },
    ])
    const added = await addImapAccount(user, dovecot, login, password)
    providerId = added.providerId
    expect(await syncJobFinished(user, providerId, added.jobId)).toMatchObject({ status: 'done' })
    // another user, whose mailbox holds the same body word
    other = new ApiClient(env.t.app)
    await other.register()
    const otherLogin = 'other-searcher@example.test'
    const otherPassword = dovecot.addUser(otherLogin)
    await dovecot.append(otherLogin, [{ raw: mail({ subject: 'Not yours', from: 'Alice Liddell <alice@wonder.example>', body: 'Another zebracorn, and lunch.', date: '2026-01-11T09:00:00Z' }) }])
    const otherAdded = await addImapAccount(other, dovecot, otherLogin, otherPassword)
    expect(await syncJobFinished(other, otherAdded.providerId, otherAdded.jobId)).toMatchObject({ status: 'done' })
  }, 120_000)

  const search = async (client: ApiClient, q: string) => {
    const res = await client.json(client.get(`/api/emails?by=conversation&q=${encodeURIComponent(q)}`))
    return { status: res.status, body: res.body, subjects: (res.body.emails ?? []).map((e: { subject: string }) => e.subject).sort() as string[] }
  }

  it('finds a word that is only in a body by asking the IMAP server, as Dovecot itself finds it', async () => {
    const found = await search(user, 'zebracorn')
    expect(found).toMatchObject({ status: 200, subjects: ['Quarterly figures'], body: { total: 1, unsearched: [] } })
    // checked on the server: its own UID SEARCH answers the same one message
    const client = await dovecot.client('searcher@example.test')
    try {
      await client.mailboxOpen('INBOX', { readOnly: true })
      const uids = await client.search({ body: 'zebracorn' }, { uid: true })
      expect(uids).toHaveLength(1)
      const [message] = await client.fetchAll(uids as number[], { envelope: true }, { uid: true })
      expect(message.envelope?.subject).toBe('Quarterly figures')
    } finally {
      await client.logout()
    }
    // every word must be there (header or body): one missing finds nothing
    expect((await search(user, 'zebracorn numbers')).subjects).toEqual(['Quarterly figures'])
    expect((await search(user, 'zebracorn tuesday')).subjects).toEqual([])
    // a phrase is a phrase
    expect((await search(user, '"numbers are attached"')).subjects).toEqual(['Quarterly figures'])
    expect((await search(user, '"attached numbers"')).subjects).toEqual([])
  })

  it('matches subject, sender and recipients from what is stored, case-insensitively', async () => {
    expect((await search(user, 'LUNCH')).subjects).toEqual(['Lunch plans'])
    expect((await search(user, 'liddell')).subjects).toEqual(['Quarterly figures'])
    expect((await search(user, 'bureau.example')).subjects).toEqual(['Garden party'])
  })

  it('narrows by every operator', async () => {
    expect((await search(user, 'from:alice')).subjects).toEqual(['Quarterly figures'])
    expect((await search(user, 'from:"Bob Stone"')).subjects).toEqual(['Lunch plans'])
    // to: covers Cc
    expect((await search(user, 'to:dana@bureau.example')).subjects).toEqual(['Garden party'])
    expect((await search(user, 'to:friends')).subjects).toEqual(['Garden party'])
    // from: looks at the sender only: Alice's name is in no recipient
    expect((await search(user, 'to:alice')).subjects).toEqual([])
    expect((await search(user, 'subject:party')).subjects).toEqual(['Garden party'])
    expect((await search(user, 'subject:carol')).subjects).toEqual([])
    expect((await search(user, 'has:attachment')).subjects).toEqual(['Lunch plans'])
    expect((await search(user, 'is:starred')).subjects).toEqual(['Invoice 100% paid_in_full'])
    expect((await search(user, 'is:unread')).subjects).toEqual(['Lunch plans', 'Quarterly figures'])
    expect((await search(user, 'is:read')).subjects).toEqual(['Garden party', 'Invoice 100% paid_in_full'])
    expect((await search(user, 'after:2026-02-01 before:2026-03-01')).subjects).toEqual(['Invoice 100% paid_in_full', 'Lunch plans'])
    expect((await search(user, 'before:2026-01-11')).subjects).toEqual(['Quarterly figures'])
    // operators and a body word together: the body's match must pass the operators too
    expect((await search(user, 'zebracorn is:unread')).subjects).toEqual(['Quarterly figures'])
    expect((await search(user, 'zebracorn is:starred')).subjects).toEqual([])
    expect((await search(user, 'tuesday has:attachment from:bob')).subjects).toEqual(['Lunch plans'])
  })

  it("takes LIKE's metacharacters and SQL literally", async () => {
    expect((await search(user, '100%')).subjects).toEqual(['Invoice 100% paid_in_full'])
    expect((await search(user, '%')).subjects).toEqual(['Invoice 100% paid_in_full'])
    expect((await search(user, 'paid_in')).subjects).toEqual(['Invoice 100% paid_in_full'])
    expect((await search(user, '_')).subjects).toEqual(['Invoice 100% paid_in_full'])
    expect((await search(user, 'subject:%')).subjects).toEqual(['Invoice 100% paid_in_full'])
    expect(await search(user, '\\')).toMatchObject({ status: 200, subjects: [] })
    expect(await search(user, "' or '1'='1")).toMatchObject({ status: 200, subjects: [] })
    expect(await search(user, '"unclosed \r\n A1 LOGOUT')).toMatchObject({ status: 200, subjects: [] })
  })

  it('refuses a search it cannot mean, with the reason', async () => {
    expect(await search(user, 'is:important')).toMatchObject({ status: 400, body: { message: 'is: takes unread, read or starred', errors: { q: ['is: takes unread, read or starred'] } } })
    expect(await search(user, 'before:someday')).toMatchObject({ status: 400, body: { message: 'before: takes a date as YYYY-MM-DD' } })
    expect((await search(user, 'x'.repeat(501))).status).toBe(400)
  })

  it("never finds another user's mail, in the stored headers or on the servers", async () => {
    expect((await search(user, 'zebracorn')).subjects).toEqual(['Quarterly figures'])
    expect((await search(user, 'yours')).subjects).toEqual([])
    expect((await search(other, 'zebracorn')).subjects).toEqual(['Not yours'])
    expect((await search(other, 'lunch')).subjects).toEqual(['Not yours'])
    expect((await search(other, 'from:alice')).subjects).toEqual(['Not yours'])
    // another user's account named as the scope: nothing of it (the list's filter, as without a search)
    const theirs = (await other.json(other.get('/api/email-providers'))).body.providers[0].id
    const scoped = await user.json(user.get(`/api/emails?q=zebracorn&providerId=${theirs}`))
    expect([scoped.status, scoped.body.emails, scoped.body.unsearched]).toEqual([200, [], []])
  })

  it('pages the results by conversation with their total', async () => {
    const page = await user.json(user.get(`/api/emails?by=conversation&limit=1&offset=1&q=${encodeURIComponent('is:unread')}`))
    expect(page.body.total).toBe(2)
    expect(page.body.emails.map((e: { subject: string }) => e.subject)).toEqual(['Quarterly figures'])
    // past the last page: no rows, the same total
    const past = await user.json(user.get(`/api/emails?by=conversation&limit=1&offset=5&q=${encodeURIComponent('is:unread')}`))
    expect([past.body.emails, past.body.total]).toEqual([[], 2])
    // by message, as the unread category pages: the search holds there too
    const messages = await user.json(user.get(`/api/emails?limit=10&q=${encodeURIComponent('from:bob')}`))
    expect(messages.body.emails.map((e: { subject: string }) => e.subject)).toEqual(['Lunch plans'])
  })

  it('leaves out an account whose server is down and names it, while the stored matches still come', async () => {
    await dovecot.pause()
    try {
      const found = await search(user, 'lunch')
      expect(found).toMatchObject({ status: 200, subjects: ['Lunch plans'] })
      expect(found.body.unsearched).toEqual([{ providerId, email: 'searcher@example.test', reason: 'its mail server could not be reached' }])
    } finally {
      await dovecot.resume()
    }
  })

  it('leaves out a server that goes silent or answers millions of UIDs, within the time budget, and answers from the others', async () => {
    const names: Record<string, string> = {}
    for (const [name, hook] of [['silent', silentAfter('SEARCH')], ['flood', hugeSearch(3_000_000)]] as const) {
      const login = `${name}@hostile.test`
      const raw = mail({ subject: `Hostile ${name}`, from: 'x@hostile.example', body: 'zebracorn', date: '2026-01-05T00:00:00Z' })
      const imap = await startHostileImap({ tls: dovecot.certificates, users: { [login]: DEFAULT_PASSWORD }, folders: { INBOX: [{ uid: 1, raw }] }, onCommand: onTextSearch(hook) })
      hostile.push(imap)
      const added = await addImapAccount(user, { host: imap.host, port: imap.port }, login, DEFAULT_PASSWORD)
      expect(await syncJobFinished(user, added.providerId, added.jobId)).toMatchObject({ status: 'done' })
      names[added.providerId] = login
    }
    // stored: the hostile accounts' subjects are found without their servers
    expect((await search(user, 'hostile')).subjects).toEqual(['Hostile flood', 'Hostile silent'])
    const found = await search(user, 'zebracorn')
    expect(found.subjects).toEqual(['Quarterly figures'])
    expect(new Map(found.body.unsearched.map((u: { providerId: string; email: string; reason: string }) => [u.email, u.reason]))).toEqual(new Map([
      ['silent@hostile.test', 'its mail server did not answer in time'],
      ['flood@hostile.test', 'its mail server sent far more than a search needs'],
    ]))
    for (const u of found.body.unsearched) expect(names[u.providerId]).toBe(u.email)
    // the flood was cut off near the search's byte budget, and no connection is left open
    expect(hostile[1].bytesSent()).toBeLessThan(40 * 1024 * 1024)
    await expect.poll(() => hostile.map((imap) => imap.openConnections())).toEqual([0, 0])
  })
})
