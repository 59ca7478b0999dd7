// /inbox/settings in a real browser against the real web process, the real sync worker and a
// private Dovecot whose logins are user names, not addresses (as on many hosted servers): the
// Custom IMAP form's User Name, and an account whose first login failed fixed with Edit instead of
// removed. The login is Dovecot's to accept: the mail it holds for that user shows in the inbox.
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from '../../scripts/testing/axe.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { startInboxBrowser, type InboxBrowser } from '../../scripts/testing/inbox-browser.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const CRLF = '\r\n'
const WRONG_PASSWORD_REASON = 'The mail server refused the e-mail address or password. Check them (Gmail and Yahoo need an app password).'

let dovecot: Dovecot
let inbox: InboxBrowser | undefined
let server: WebServer
let page: Page
const passwords: Record<string, string> = {}

const message = (to: string, subject: string) => [
  'From: Hoster <news@hoster.example>', `To: ${to}`, `Subject: ${subject}`, `Date: ${new Date(Date.UTC(2026, 10, 20, 9, 0)).toUTCString()}`,
  `Message-ID: <${subject.replace(/\W+/g, '-')}@hoster.example>`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', `${subject}.`, '',
].join(CRLF)

const account = (email: string) => page.locator(`[data-testid="mail-account"][data-email="${email}"]`)
const toast = (title: string) => page.getByTestId('toast').filter({ has: page.getByText(title, { exact: true }) })
const addForm = () => page.getByRole('form', { name: 'Add email account' })

beforeAll(async () => {
  if (!run) return
  dovecot = await startDovecot()
  for (const [login, address] of [['kim-login', 'kim@hoster.example'], ['sam-login', 'sam@hoster.example']]) {
    passwords[login] = dovecot.addUser(login)
    dovecot.writeMessages(login, [{ raw: message(address, `Welcome ${login}`) }])
  }
  inbox = await startInboxBrowser(dovecot)
  ;({ server, page } = inbox)
  await registerThroughForm(page, server.url, inbox.env.mailbox, 'hosted@example.com')
}, 180_000)
afterEach(screenshotOnFailure(() => page, 'mailbox-edit-failure.png'))
afterAll(async () => {
  await inbox?.close()
  await dovecot?.stop()
})

async function addCustom(email: string, password: string, username?: string) {
  await page.locator('[data-provider="other"]').click()
  await addForm().getByLabel('Email Address').fill(email)
  await addForm().getByLabel('Password', { exact: true }).fill(password)
  await addForm().getByLabel('IMAP Server').fill(dovecot.host)
  await addForm().getByLabel('Port').fill(String(dovecot.port))
  if (username) await addForm().getByLabel('User Name').fill(username)
  await addForm().getByRole('button', { name: 'Add Account' }).click()
  await account(email).waitFor()
}

describe.skipIf(!run)('a connected account whose login is a user name', () => {
  it('connects a Custom IMAP account with the User Name the server knows', async () => {
    await page.goto(server.url + '/inbox/settings')
    await addCustom('kim@hoster.example', passwords['kim-login'], 'kim-login')
    // the first sync's job is polled every 10 s
    await toast('Email account added').waitFor({ timeout: 40_000 })
    await expect.poll(() => account('kim@hoster.example').getAttribute('data-state'), { timeout: 30_000 }).toBe('idle')
    await page.goto(server.url + '/inbox')
    await page.getByTestId('row-subject').getByText('Welcome kim-login', { exact: true }).waitFor()
  }, 90_000)

  it('fixes an account whose first login failed with Edit: user name and password, then its mail comes', async () => {
    await page.goto(server.url + '/inbox/settings')
    // the address as the login, as the form did before it had a User Name
    await addCustom('sam@hoster.example', passwords['sam-login'])
    await expect.poll(() => account('sam@hoster.example').getAttribute('data-state'), { timeout: 40_000 }).toBe('error')
    expect(await account('sam@hoster.example').getByTestId('account-error').textContent()).toBe(`Error: ${WRONG_PASSWORD_REASON}`)

    await account('sam@hoster.example').getByRole('button', { name: 'Edit connection of sam@hoster.example' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit sam@hoster.example' })
    // the saved server, no password shown, the address as the login
    expect(await dialog.getByLabel('IMAP Server').inputValue()).toBe(dovecot.host)
    expect(await dialog.getByLabel('Port').inputValue()).toBe(String(dovecot.port))
    expect(await dialog.getByLabel('User Name').inputValue()).toBe('')
    expect(await dialog.getByLabel('Password', { exact: true }).inputValue()).toBe('')
    await dialog.getByLabel('User Name').fill('sam-login')
    expect(await seriousViolations(page)).toEqual([])
    await page.setViewportSize({ width: 375, height: 812 })
    await page.screenshot({ path: path.join(SCREENSHOTS, 'mailbox-edit-dialog-375.png') })
    await page.setViewportSize({ width: 1280, height: 900 })
    // the password left empty keeps the saved one, which was right all along
    await dialog.getByRole('button', { name: 'Save and connect' }).click()
    await dialog.waitFor({ state: 'detached' })
    await toast('Email account connected').waitFor({ timeout: 40_000 })
    await expect.poll(() => account('sam@hoster.example').getAttribute('data-state'), { timeout: 30_000 }).toBe('idle')
    expect(await account('sam@hoster.example').getByTestId('account-error').count()).toBe(0)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'mailbox-edit-settings-1280.png'), fullPage: true })
    await page.goto(server.url + '/inbox')
    await page.getByTestId('row-subject').getByText('Welcome sam-login', { exact: true }).waitFor()

    // a server name mistyped in the dialog is refused there, nothing sent
    await page.goto(server.url + '/inbox/settings')
    await account('sam@hoster.example').getByRole('button', { name: 'Edit connection of sam@hoster.example' }).click()
    await dialog.getByLabel('IMAP Server').fill('   ')
    await dialog.getByRole('button', { name: 'Save and connect' }).click()
    await dialog.getByText('Please enter the IMAP server address.').waitFor()
    await dialog.getByLabel('IMAP Server').fill('imap server.example')
    await dialog.getByRole('button', { name: 'Save and connect' }).click()
    await dialog.getByText('Please enter a valid IMAP server address.').waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await account('sam@hoster.example').getAttribute('data-state')).toBe('idle')
  }, 120_000)
})
