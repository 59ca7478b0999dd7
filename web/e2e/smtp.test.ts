// SMTP credentials on the dashboard in a real browser against the real web process and database,
// with a fake page clock for the 30-second display, and proof that the password the panel shows
// logs in to the real submission server.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { PgBoss } from 'pg-boss'
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSubmissionServers, type SubmissionServers } from '../../workers/submission/submission-server.ts'
import { createBoss } from '../../db/queues.ts'
import { browserAvailable, launchBrowser, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { testConfig } from '../../scripts/testing/test-app.ts'
import { createTestDatabase, type TestDatabase } from '../../scripts/testing/test-database.ts'
import { startWebServer, type WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
const DOMAINS = 'veilmail.test,veil.test'
const name = `send-${crypto.randomUUID().slice(0, 6)}`
const address = `${name}@veilmail.test`
let db: TestDatabase
let server: WebServer
let boss: PgBoss
let submission: SubmissionServers
let ports: { starttls: number; tls: number }
let dataDir: string
let browser: Browser
let context: BrowserContext
let page: Page
let aliasId: string
/** The credential-list calls the browser made. */
const listCalls: string[] = []
/** Passwords the panel showed, in order. */
const passwords: string[] = []
const pageErrors: Error[] = []

beforeAll(async () => {
  if (!run) return
  db = await createTestDatabase()
  boss = createBoss(db.url, { max: 2, maintenance: false })
  await boss.start()
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'veilmail-smtp-e2e-'))
  const config = testConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, MAIL_DOMAINS: DOMAINS })
  submission = createSubmissionServers({ sql: db.sql, boss, config })
  ports = await submission.listen({ starttls: 0, tls: 0 }, '127.0.0.1')
  // The web process is told where submission listens; the panel must show those ports, not 587/465.
  server = await startWebServer(db.url, { MAIL_DOMAINS: DOMAINS, SUBMISSION_PORT: String(ports.starttls), SUBMISSION_TLS_PORT: String(ports.tls) })
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
  context.on('request', (request) => {
    if (/\/api\/smtp-credentials\/alias\/[^/]+$/.test(new URL(request.url()).pathname)) listCalls.push(request.url())
  })
  page = await context.newPage()
  page.on('pageerror', (error) => pageErrors.push(error))
  page.setDefaultTimeout(10_000)
  // Before the first navigation, so the app's timers are the fake ones; time still runs on its own.
  await page.clock.install()
  const user = await registerVerified(context.request, server.url, db.sql, `smtp.${name}@example.com`)
  const created = await context.request.post(`${server.url}/api/aliases/${user.id}`, { data: { alias: name, domain: 'veilmail.test', forwardTo: 'me@example.com' } })
  expect(created.status()).toBe(201)
  aliasId = (await created.json()).alias.id
}, 60_000)
afterEach(screenshotOnFailure(() => page, 'smtp-failure.png'))
afterAll(async () => {
  await browser?.close()
  await submission?.close()
  await boss?.stop({ graceful: false })
  await server?.stop()
  await db?.drop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const toast = (title: string) => page.getByTestId('toast').getByText(title, { exact: true })
const row = (): Locator => page.locator(`[data-testid="alias-row"][data-alias="${address}"]`)
const panel = () => page.getByTestId('smtp-panel')
const password = () => panel().getByTestId('smtp-password')
const revealed = async () => (await password().getAttribute('data-revealed')) === 'true'
const screenshot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: false })
/** What the reveal endpoint returns now, read with the browser's session. */
const serverPassword = async () => (await (await context.request.get(`${server.url}/api/smtp-credentials/alias/${aliasId}/password`)).json()).password
/** The ports the panel shows, as a user would copy them into a mail app. */
const shownPorts = async () => ({
  starttls: Number(await panel().getByTestId('smtp-port-starttls').innerText()),
  tls: Number(await panel().getByTestId('smtp-port-tls').innerText()),
})
/** SMTP AUTH over STARTTLS on the submission port (or implicit TLS on the TLS port), as a mail app would. */
const smtpLogin = (pass: string, port = ports.starttls, secure = false) =>
  nodemailer.createTransport({
    host: '127.0.0.1', port, secure, requireTLS: !secure, auth: { user: address, pass },
    tls: { rejectUnauthorized: false }, connectionTimeout: 5000,
  }).verify()

/** The page's (fake) clock: time runs on its own and jumps on runFor. */
const pageNow = () => page.evaluate(() => Date.now())
/** The countdown's seconds, checked against the page time since `since` (taken before the reveal):
 *  it starts at 30 and falls with that time; a busy machine may let real seconds pass before the read. */
async function expectCountdown(since: number, atMost = 30): Promise<void> {
  const text = await panel().getByTestId('smtp-password-countdown').innerText()
  const elapsed = Math.ceil(((await pageNow()) - since) / 1000)
  expect(text).toMatch(/^Hidden again in \d+s$/)
  const seconds = Number(/\d+/.exec(text)![0])
  expect(seconds).toBeLessThanOrEqual(atMost)
  expect(seconds).toBeGreaterThanOrEqual(30 - elapsed)
}

async function shownPassword(): Promise<string> {
  await expect.poll(revealed).toBe(true)
  const value = await password().innerText()
  passwords.push(value)
  return value
}

describe.skipIf(!run)('SMTP credentials panel', () => {
  it('loads credentials only once the details are expanded, and offers Create SMTP', async () => {
    await page.goto(server.url + '/dashboard')
    await row().waitFor()
    expect(listCalls).toEqual([])
    await row().getByRole('button', { name: 'Details' }).click()
    await panel().getByText('No SMTP credentials for this alias yet.').waitFor()
    expect(listCalls).toHaveLength(1)
    const guide = panel().getByRole('link', { name: /SMTP setup guide/ })
    expect(await guide.getAttribute('href')).toBe('https://github.com/veilmail/veilmail#sending-from-an-alias')
    expect(await guide.getAttribute('target')).toBe('_blank')
    await panel().evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await screenshot('smtp-panel-absent-1280.png')
  })

  it('creates credentials and shows the password, which is the one the server holds, for 30 seconds', async () => {
    const since = await pageNow()
    await panel().getByRole('button', { name: 'Create SMTP' }).click()
    await toast('SMTP Credentials Created').waitFor()
    const created = await shownPassword()
    expect(created).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(await serverPassword()).toBe(created)
    expect(await panel().getByTestId('smtp-host').innerText()).toBe('smtp.veilmail.test')
    expect(await shownPorts()).toEqual(ports)
    await panel().getByText('Port (TLS)').waitFor()
    await panel().getByText('Port (SSL)').waitFor()
    expect(await panel().getByTestId('smtp-username').innerText()).toBe(address)
    const countdown = panel().getByTestId('smtp-password-countdown')
    await expectCountdown(since)
    await panel().scrollIntoViewIfNeeded()
    await screenshot('smtp-panel-created-1280.png')

    await page.clock.runFor(10_000)
    await expect.poll(async () => Number(/\d+/.exec(await countdown.innerText())?.[0])).toBeLessThanOrEqual(20)
    await expectCountdown(since, 20)
    await page.clock.runFor(20_000)
    await expect.poll(revealed).toBe(false)
    expect(await password().innerText()).toMatch(/^•+$/)
    expect(await countdown.count()).toBe(0)
    expect(await panel().getByRole('button', { name: 'Copy Password' }).isDisabled()).toBe(true)
    await panel().scrollIntoViewIfNeeded()
    await screenshot('smtp-panel-masked-1280.png')
  })

  it('logs in to the submission server with the shown password on both shown ports', async () => {
    const shown = await shownPorts()
    expect(await smtpLogin(passwords[0], shown.starttls)).toBe(true)
    expect(await smtpLogin(passwords[0], shown.tls, true)).toBe(true)
  })

  it('copies the settings', async () => {
    await panel().getByRole('button', { name: 'Copy Username' }).click()
    await toast('Copied!').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)
    await panel().getByRole('button', { name: 'Copy Server' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('smtp.veilmail.test')
    await panel().getByRole('button', { name: 'Copy Port (SSL)' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(String(ports.tls))
  })

  it('reveals the password for 30 seconds, and hides it at once on Hide', async () => {
    await panel().getByRole('button', { name: 'Reveal' }).click()
    await toast('Password revealed').waitFor()
    expect(await shownPassword()).toBe(passwords[0])
    await panel().getByRole('button', { name: 'Copy Password' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(passwords[0])
    await page.clock.runFor(30_000)
    await expect.poll(revealed).toBe(false)

    await panel().getByRole('button', { name: 'Reveal' }).click()
    await expect.poll(revealed).toBe(true)
    await panel().getByRole('button', { name: 'Hide' }).click()
    expect(await revealed()).toBe(false)
  })

  it('says why a reveal failed', async () => {
    const url = `**/api/smtp-credentials/alias/${aliasId}/password`
    const answers: [Parameters<Route['fulfill']>[0], string][] = [
      [{ status: 503, body: 'busy' }, 'Failed to fetch password: 503'],
      [{ status: 200, contentType: 'text/html', body: '<!doctype html>' }, 'Server returned non-JSON response'],
      [{ status: 200, contentType: 'application/json', body: JSON.stringify({ success: false }) }, 'No password found or invalid response'],
    ]
    for (const [answer, message] of answers) {
      await page.route(url, (route) => route.fulfill(answer))
      await panel().getByRole('button', { name: 'Reveal' }).click()
      await page.getByTestId('toast').getByText(message, { exact: true }).waitFor()
      expect(await revealed()).toBe(false)
      await page.unroute(url)
    }
  })

  it('regenerates: the new password shows for 30 seconds, replaces a revealed one, and only it logs in', async () => {
    const old = passwords[0]
    await panel().getByRole('button', { name: 'Reveal' }).click()
    await expect.poll(revealed).toBe(true)
    await page.clock.runFor(20_000) // the revealed one has 10 s left; the new one gets a full 30
    await panel().getByRole('button', { name: 'Regenerate' }).click()
    const since = await pageNow()
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate Password' }).click()
    await toast('Password Regenerated').waitFor()
    await expect.poll(() => password().innerText()).not.toBe(old)
    const fresh = await shownPassword()
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(await serverPassword()).toBe(fresh)
    await expectCountdown(since)
    await page.clock.runFor(15_000)
    expect(await revealed()).toBe(true)
    await page.clock.runFor(15_000)
    await expect.poll(revealed).toBe(false)

    await expect(smtpLogin(old)).rejects.toMatchObject({ responseCode: 535 })
    expect(await smtpLogin(fresh)).toBe(true)
  })

  it('fits a phone: the card layout shows the same panel', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => page.getByRole('table').count()).toBe(0)
    await row().getByRole('button', { name: 'Details' }).click()
    await panel().getByRole('button', { name: 'Reveal' }).click()
    await expect.poll(revealed).toBe(true)
    // Centred, so the sticky navigation bar does not cover the panel's top.
    await panel().evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await screenshot('smtp-panel-390.png')
    await page.setViewportSize({ width: 1280, height: 900 })
    await expect.poll(() => page.getByRole('table').count()).toBe(1)
  })

  it('deletes after confirming, back to Create SMTP, and the password no longer logs in', async () => {
    await row().getByRole('button', { name: 'Details' }).click()
    await panel().getByRole('button', { name: 'Delete SMTP Credentials' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText(address).waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    await panel().getByRole('button', { name: 'Delete SMTP Credentials' }).click()
    await dialog.getByRole('button', { name: 'Delete Credentials' }).click()
    await toast('SMTP Credentials Deleted').waitFor()
    await panel().getByRole('button', { name: 'Create SMTP' }).waitFor()
    expect(await db.sql`select id from smtp_credentials where alias_id = ${aliasId}`).toHaveLength(0)
    await expect(smtpLogin(passwords.at(-1)!)).rejects.toMatchObject({ responseCode: 535 })
    expect(pageErrors).toEqual([])
  })
})
