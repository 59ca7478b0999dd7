// /inbox/settings in a real browser against the real web process, a real `sync` process and a
// private Dovecot: the form's checks, adding a Custom IMAP account and following its first sync
// (polled every 10 s; the page's clock is moved on instead of waiting), a wrong password's reason,
// Sync, the Outlook parts, removal, and the layout at 375, 768 and 1280 px.
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import type { Browser, BrowserContext, Page, Request } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { insertEmailProvider, markProviderError } from '../../db/email-providers.ts'
import { OUTLOOK_EXPIRED_MESSAGE } from '../../shared/outlook-connection.ts'
import { sealCredentials } from '../../lib/mailbox-credentials.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, screenshotOnFailure, startBrowserSuite, type BrowserSuite } from '../../scripts/testing/browser-suite.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'
import { holdMailInsertsAbove } from '../../scripts/testing/mail-insert-hold.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import { syncProcesses, type SyncProcesses } from '../../scripts/testing/sync-processes.ts'
import { createTestApp, type TestApp } from '../../scripts/testing/test-app.ts'
import { startWebServer, type WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const GOOD = 'reader@imap.test'
const BAD = 'wrong@imap.test'
const NOWHERE = 'lost@imap.test'
const WRONG_PASSWORD_REASON = 'The mail server refused the e-mail address or password. Check them (Gmail and Yahoo need an app password).'
let dovecot: Dovecot
let t: TestApp
let suite: BrowserSuite | undefined
let server: WebServer
let sync: SyncProcesses | undefined
let syncStarted = false
let browser: Browser
let context: BrowserContext
let page: Page
let userId: string
const posts: Request[] = []
const pageErrors: Error[] = []

beforeAll(async () => {
  if (!run) return
  dovecot = await startDovecot()
  t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true' })
  suite = await startBrowserSuite({ db: t.db, env: { ALLOW_PRIVATE_NETWORKS: 'true', METRICS_PORT: '0' } })
  ;({ server, browser } = suite)
  sync = await syncProcesses(t, dovecot.caFile, { METRICS_PORT: '0' })
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  context.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/email-providers') posts.push(request)
  })
  page = await context.newPage()
  page.on('pageerror', (error) => pageErrors.push(error))
  page.setDefaultTimeout(15_000)
  // before the first navigation, so the 10 s polls run on a clock the test can move on
  await page.clock.install()
  userId = (await registerVerified(context.request, server.url, t.db.sql, `owner.${randomUUID().slice(0, 6)}@example.com`)).id
}, 90_000)
afterEach(screenshotOnFailure(() => page, 'mailboxes-failure.png'))
afterAll(async () => {
  await sync?.close()
  if (suite) await closeBrowserSuite(suite)
  await t?.close()
  await dovecot?.stop()
})

const toast = () => page.getByTestId('toast')
const account = (email: string) => page.locator(`[data-testid="mail-account"][data-email="${email}"]`)
const form = () => page.getByRole('form', { name: 'Add email account' })
const provider = (name: string) => page.locator(`[data-provider="${name}"]`)
/** Moves the page's clock past the next 10 s poll and reads `read` once it had a moment to land. */
const afterPoll = (read: () => Promise<string | null>) => async () => {
  await page.clock.fastForward(10_000)
  return read()
}

async function expectToast(title: string, description: string) {
  // a job's toast comes with the job's next status poll (every 10 s, README), then the toaster's chunk
  await toast().getByText(title, { exact: true }).waitFor({ timeout: 30_000 })
  await toast().getByText(description, { exact: true }).waitFor()
}

async function fillCustom(email: string, password: string) {
  await provider('other').click()
  await form().getByLabel('Email Address').fill(email)
  await form().getByLabel('Password', { exact: true }).fill(password)
  await form().getByLabel('IMAP Server').fill(dovecot.host)
  // security first: choosing it puts its standard port in the field
  await form().getByLabel('Security').selectOption('ssl')
  await form().getByLabel('Port').fill(String(dovecot.port))
}

function startSync() {
  if (syncStarted) return
  sync!.start()
  syncStarted = true
}

describe.skipIf(!run)('/inbox/settings', () => {
  it('checks the form in the browser with its messages and sends nothing until they pass', async () => {
    await page.goto(server.url + '/inbox/settings')
    await page.getByRole('heading', { name: 'IMAP Account Settings', level: 1 }).waitFor()
    await page.getByText('No email accounts connected yet.').waitFor()
    // a view of the inbox: its sidebar beside it and a way back to the list
    await page.getByRole('complementary', { name: 'Mailboxes' }).getByRole('button', { name: 'Compose' }).waitFor()
    expect(await page.getByRole('link', { name: 'Back to inbox' }).getAttribute('href')).toBe('/inbox')
    const guide = page.getByRole('link', { name: 'Setup Guide' })
    expect(await guide.getAttribute('href')).toBe('https://github.com/veilmail/veilmail#connecting-a-mailbox')
    expect(await guide.getAttribute('target')).toBe('_blank')
    await page.getByRole('button', { name: 'Add Your First Account' }).click()
    await expect.poll(() => form().getByLabel('Email Address').evaluate((el) => el === document.activeElement)).toBe(true)
    // the server has no Microsoft sign-in configured: no Outlook choice
    expect(await provider('outlook').count()).toBe(0)
    for (const [name, caption] of [['gmail', 'Requires app password'], ['other', 'Manual server setup']]) {
      await provider(name).getByText(caption).waitFor()
    }

    // Gmail is the default, preset to its server
    expect(await provider('gmail').getAttribute('aria-pressed')).toBe('true')
    expect(await page.getByTestId('preset-server').innerText()).toBe('Server: imap.gmail.com, port 993, SSL/TLS')
    await page.getByTestId('provider-guidance').getByText(/Gmail needs an app password/).waitFor()
    await form().getByRole('button', { name: 'Add Account' }).click()
    await expectToast('Missing fields', 'Please fill in all required fields.')
    expect(await form().getByRole('alert').innerText()).toBe('Please fill in all required fields.')
    await form().getByLabel('Email Address').fill('me@yahoo.example')
    await form().getByRole('button', { name: 'Add Account' }).click()
    await expect.poll(() => form().getByLabel('App Password').getAttribute('aria-invalid')).toBe('true')
    await provider('yahoo').click()
    expect(await page.getByTestId('preset-server').innerText()).toBe('Server: imap.mail.yahoo.com, port 993, SSL/TLS')

    // Custom IMAP: server required; SSL/TLS on 993, STARTTLS on 143
    await provider('other').click()
    await form().getByLabel('Password', { exact: true }).fill('secret')
    await form().getByRole('button', { name: 'Add Account' }).click()
    await expectToast('Missing IMAP server', 'Please enter the IMAP server address.')
    expect(await form().getByLabel('IMAP Server').getAttribute('aria-invalid')).toBe('true')
    expect(await form().getByLabel('Port').inputValue()).toBe('993')
    await form().getByLabel('Security').selectOption('starttls')
    expect(await form().getByLabel('Port').inputValue()).toBe('143')
    await form().getByLabel('Security').selectOption('ssl')
    expect(await form().getByLabel('Port').inputValue()).toBe('993')
    expect(posts).toHaveLength(0)

    // what only the server can tell is shown as it says it
    await form().getByLabel('Email Address').fill('not-an-address')
    await form().getByLabel('IMAP Server').fill('imap.example.org')
    await form().getByRole('button', { name: 'Add Account' }).click()
    await expectToast('Failed to add email account', 'Valid email address is required')
    expect(await form().getByRole('alert').innerText()).toBe('Valid email address is required')
    expect(posts).toHaveLength(1)
    expect(pageErrors).toEqual([])
  })

  it('adds a Custom IMAP account through the form: Connecting…, the first sync\'s progress, then the counts', async () => {
    const password = dovecot.addUser(GOOD)
    dovecot.writeMessages(GOOD, Array.from({ length: 200 }, (_, i) => ({ raw: sampleMail(i).raw })))
    // the insert of UID 101 waits until the hold is released: the sync stops at 100 of 200
    const hold = await holdMailInsertsAbove(t.db.sql, 100)
    try {
      await fillCustom(GOOD, password)
      const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/email-providers'))
      await form().getByRole('button', { name: 'Add Account' }).click()
      // the wire format the API documents (README "Connecting a mailbox (server side)")
      const body = (await sent).postDataJSON()
      expect(Object.keys(body).sort()).toEqual(['email', 'encryptedCredentials', 'provider'])
      expect(body).toMatchObject({ provider: 'other', email: GOOD })
      expect(JSON.parse(Buffer.from(body.encryptedCredentials, 'base64').toString('utf8'))).toEqual({ email: GOOD, password, host: dovecot.host, port: dovecot.port, secure: true })

      // no sync process runs yet: the login is still to be checked
      await account(GOOD).getByText('Connecting…', { exact: true }).waitFor()
      expect(await form().getByLabel('Password', { exact: true }).inputValue()).toBe('')
      startSync()
      await expect.poll(afterPoll(() => account(GOOD).getByTestId('account-status-text').textContent()), { timeout: 90_000, interval: 200 }).toBe('Syncing… 100 of 200')
      expect(await account(GOOD).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')
      await account(GOOD).screenshot({ path: path.join(SCREENSHOTS, 'mailboxes-syncing.png') })
      expect(await account(GOOD).getByRole('button', { name: 'Syncing…' }).isDisabled()).toBe(true)
    } finally {
      await hold.release()
    }
    await expect.poll(afterPoll(() => account(GOOD).getAttribute('data-state')), { timeout: 90_000, interval: 200 }).toBe('idle')
    await expectToast('Email account added', 'Your email account has been connected successfully.')
    expect(await account(GOOD).getByTestId('account-status-text').textContent()).toBe('Up to date')
    expect(await account(GOOD).getByTestId('account-active').textContent()).toBe('Active')
    expect(await account(GOOD).getByTestId('last-sync').textContent()).toMatch(/^Last sync: /)
    expect(await account(GOOD).locator('[data-testid="account-folder"][data-path="INBOX"]').textContent()).toBe('Inbox200 messages, 200 unread')
    await account(GOOD).getByText('127.0.0.1:' + dovecot.port).waitFor()

    // Sync fetches what arrived since
    await dovecot.append(GOOD, [{ raw: sampleMail(900).raw }, { raw: sampleMail(901).raw, flags: '\\Seen' }])
    await account(GOOD).getByRole('button', { name: 'Sync' }).click()
    await expect.poll(afterPoll(() => toast().textContent()), { timeout: 60_000, interval: 200 }).toContain('Sync completed')
    await expectToast('Sync completed', '2 new emails synced successfully.')
    await expect.poll(() => account(GOOD).locator('[data-testid="account-folder"][data-path="INBOX"]').textContent()).toBe('Inbox202 messages, 201 unread')
  }, 240_000)

  it('shows the server\'s reason when the password is wrong or the host unknown, and stops the account', async () => {
    dovecot.addUser(BAD, 'the-right-one')
    startSync()
    await fillCustom(BAD, 'not-the-password')
    await form().getByRole('button', { name: 'Add Account' }).click()
    await account(BAD).waitFor()
    await expect.poll(afterPoll(() => account(BAD).getAttribute('data-state')), { timeout: 90_000, interval: 200 }).toBe('error')
    expect(await account(BAD).getByTestId('account-error').textContent()).toBe(`Error: ${WRONG_PASSWORD_REASON}`)
    await expectToast('Failed to add email account', WRONG_PASSWORD_REASON)
    expect(await account(BAD).getByTestId('account-active').textContent()).toBe('Inactive')
    await account(BAD).getByText('Automatic sync is stopped for this account until it is fixed.', { exact: false }).waitFor()
    expect(await account(BAD).getByTestId('last-sync').textContent()).toBe('Not synced yet')

    // a server name that does not exist (RFC 6761 reserves .invalid)
    await form().getByLabel('Email Address').fill(NOWHERE)
    await form().getByLabel('Password', { exact: true }).fill('whatever')
    await form().getByLabel('IMAP Server').fill('imap.no-such-host.invalid')
    await form().getByRole('button', { name: 'Add Account' }).click()
    await account(NOWHERE).waitFor()
    await expect.poll(afterPoll(() => account(NOWHERE).getAttribute('data-state')), { timeout: 120_000, interval: 200 }).toBe('error')
    expect(await account(NOWHERE).getByTestId('account-error').textContent()).toBe('Error: The mail server imap.no-such-host.invalid could not be found. Check the server name.')
    expect(pageErrors).toEqual([])
  }, 180_000)

  it('offers Outlook only when Microsoft sign-in is configured, reads its return and shows an expired sign-in', async () => {
    // the same database behind a web process that has Microsoft sign-in configured
    const withMicrosoft = await startWebServer(t.db.url, { ALLOW_PRIVATE_NETWORKS: 'true', METRICS_PORT: '0', MICROSOFT_CLIENT_ID: 'veilmail-test', MICROSOFT_CLIENT_SECRET: 'test-secret' })
    const outlookPage = await context.newPage()
    try {
      const id = randomUUID()
      const credentials = sealCredentials(t.config, id, { email: 'me@outlook.test', password: 'unused', host: 'outlook.office365.com', port: 993, secure: true })
      expect(await insertEmailProvider(t.db.sql, { id, userId, provider: 'outlook', email: 'me@outlook.test', credentials })).toBeDefined()
      await markProviderError(t.db.sql, id, OUTLOOK_EXPIRED_MESSAGE, true)

      await outlookPage.goto(withMicrosoft.url + '/inbox/settings?status=error&reason=denied')
      await outlookPage.getByTestId('toast').getByText('Connection Failed', { exact: true }).waitFor()
      await outlookPage.getByTestId('toast').getByText('Microsoft sign-in was cancelled.', { exact: true }).waitFor()
      await expect.poll(() => new URL(outlookPage.url()).search).toBe('')
      await outlookPage.goto(withMicrosoft.url + '/inbox/settings?status=error&reason=<b>call+this+number</b>')
      await outlookPage.getByTestId('toast').getByText('Could not connect your Outlook account. Please try again.', { exact: true }).waitFor()
      await outlookPage.goto(withMicrosoft.url + '/inbox/settings?status=success')
      await outlookPage.getByTestId('toast').getByText('Outlook Connected', { exact: true }).waitFor()
      await expect.poll(() => new URL(outlookPage.url()).search).toBe('')

      const expired = outlookPage.locator('[data-testid="mail-account"][data-email="me@outlook.test"]')
      await expired.getByText('Outlook Authentication Expired', { exact: true }).waitFor()
      expect(await expired.textContent()).not.toContain('OUTLOOK_TOKEN_EXPIRED')
      const reauth = outlookPage.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/api/auth/microsoft')
      await expired.getByRole('button', { name: 'Re-authenticate' }).click()
      expect(new URL((await reauth).url()).origin).toBe(withMicrosoft.url)

      await outlookPage.goto(withMicrosoft.url + '/inbox/settings')
      await outlookPage.locator('[data-provider="outlook"]').getByText('OAuth2 authentication').waitFor()
      await outlookPage.locator('[data-provider="outlook"]').click()
      const start = outlookPage.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/api/auth/microsoft')
      await outlookPage.getByRole('button', { name: 'Sign in with Microsoft' }).click()
      await start
    } finally {
      await outlookPage.close()
      await withMicrosoft.stop()
    }
  }, 120_000)

  it('lays the page out at 375, 768 and 1280 px', async () => {
    await page.goto(server.url + '/inbox/settings')
    await account(GOOD).getByTestId('account-folder').first().waitFor()
    for (const width of [375, 768, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await provider('other').click()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, `scrolls sideways by ${overflow}px at ${width}`).toBeLessThanOrEqual(0)
      await page.screenshot({ path: path.join(SCREENSHOTS, `mailboxes-${width}.png`), fullPage: true })
    }
  })

  it('syncs the Sent folder once it is turned on, and drops its mail here when it is turned off', async () => {
    await dovecot.append(GOOD, [{ raw: sampleMail(950).raw, flags: '\\Seen' }, { raw: sampleMail(951).raw, flags: '\\Seen' }], 'Sent')
    const [{ id }] = await t.db.sql<{ id: string }[]>`select id from email_providers where email = ${GOOD}`
    const sent = account(GOOD).locator('[data-testid="account-folder"][data-path="Sent"]')
    const toggle = account(GOOD).getByRole('switch', { name: 'Sync Sent' })
    expect(await toggle.getAttribute('aria-checked')).toBe('false')
    expect(await account(GOOD).getByRole('switch', { name: 'Sync Inbox' }).count()).toBe(0)
    await toggle.click()
    await toast().getByText('Sent will be synced', { exact: true }).waitFor()
    // the sync it queued is followed like a Sync press (its job polled every 10 s) and stores Sent's two messages
    await expect.poll(afterPoll(() => toast().textContent()), { timeout: 90_000, interval: 200 }).toContain('Sync completed')
    await expect.poll(() => sent.textContent()).toBe('Sent2 messages, 0 unread')
    expect(await toggle.getAttribute('aria-checked')).toBe('true')
    const stored = () => t.db.sql`select 1 from received_emails e join mailbox_folders f on f.id = e.folder_id where e.provider_id = ${id} and f.path = 'Sent'`
    expect(await stored()).toHaveLength(2)

    await toggle.click()
    await toast().getByText('Sent is no longer synced', { exact: true }).waitFor()
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false')
    expect(await stored()).toHaveLength(0)
    // nothing changed on the server
    await expect.poll(() => sent.textContent()).toBe('Sent2 messages, not synced')
  }, 180_000)

  it('removes an account after confirmation, with the mail synced from it', async () => {
    const [{ id }] = await t.db.sql<{ id: string }[]>`select id from email_providers where email = ${GOOD}`
    await account(GOOD).getByRole('button', { name: `Remove ${GOOD}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove Email Account' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(await account(GOOD).count()).toBe(1)
    await account(GOOD).getByRole('button', { name: `Remove ${GOOD}` }).click()
    await dialog.getByRole('button', { name: 'Remove Account' }).click()
    await expectToast('Email account removed', 'The account and the mail synced from it were removed.')
    await account(GOOD).waitFor({ state: 'detached' })
    expect(await t.db.sql`select 1 from email_providers where id = ${id}`).toHaveLength(0)
    expect(await t.db.sql`select 1 from received_emails where provider_id = ${id}`).toHaveLength(0)
    expect(await account(BAD).count()).toBe(1)
    expect(pageErrors).toEqual([])
  })
})
