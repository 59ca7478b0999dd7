// Sending as the mailbox itself, in a real browser (issue 26): a private Dovecot synced by the real
// sync worker into the real web process; the account's SMTP server (a stand-in with AUTH under the
// same test CA) is set up on /inbox/settings; a reply to mail addressed to the mailbox starts from
// that mailbox (listed first, before the aliases), leaves through the outgoing queue and the
// delivery worker via that server, and its copy is in the account's \Sent folder on Dovecot.
import { simpleParser } from 'mailparser'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { emailRow, openMessage } from '../../scripts/testing/inbox-browser.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import type { MailboxSmtpStandIn } from '../../scripts/testing/mailbox-smtp-stand-in.ts'
import { startSendingMailboxBrowser, type SendingMailboxBrowser } from '../../scripts/testing/sending-mailbox-browser.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const MAILBOX = 'sam@mailbox.example'
const ALIAS = 'sam.shop@veilmail.test'
const FRIEND = 'alex@friends.example'
const CRLF = '\r\n'

let env: MailEnv
let dovecot: Dovecot
let smtp: MailboxSmtpStandIn
let inbox: SendingMailboxBrowser | undefined
let server: WebServer
let page: Page
let providerId: string

const mail = (o: { to: string; subject: string; id: string; minute: number; body: string }) => [
  `From: Alex <${FRIEND}>`, `To: ${o.to}`, `Subject: ${o.subject}`, `Date: ${new Date(Date.UTC(2026, 10, 21, 18, o.minute)).toUTCString()}`,
  `Message-ID: <${o.id}@friends.example>`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', o.body, '',
].join(CRLF)

const toast = (p: Page, title: string) => p.getByTestId('toast').filter({ has: p.getByText(title, { exact: true }) })

beforeAll(async () => {
  if (!run) return
  inbox = await startSendingMailboxBrowser({ mailbox: MAILBOX, alias: ALIAS, account: 'sam@example.com', messages: [
    { raw: mail({ to: MAILBOX, subject: 'Dinner on Friday', id: 'dinner', minute: 1, body: 'Are you free on Friday?' }), flags: 'S' },
    // came to an alias and was forwarded into the mailbox: answering from the real address would give it away
    { raw: mail({ to: ALIAS, subject: 'Your order', id: 'order', minute: 2, body: 'Your order has shipped.' }), flags: 'S' },
  ] })
  ;({ env, server, page, dovecot, smtp, providerId } = inbox)
}, 180_000)
afterEach(screenshotOnFailure(() => page, 'send-as-mailbox-failure.png'))
afterAll(() => inbox?.close())

  /** The texts of the drafts in the mailbox's Drafts folder on the server (undefined before it exists). */
const drafts = async () => {
    const client = await dovecot.client(MAILBOX)
    try {
      if (!(await client.list()).some((f) => f.path === 'Drafts')) return undefined
      const lock = await client.getMailboxLock('Drafts', { readOnly: true })
      const found: string[] = []
      try {
        if (client.mailbox && client.mailbox.exists > 0) {
          for await (const m of client.fetch('1:*', { source: true })) found.push((await simpleParser(m.source!)).text?.trim() ?? '')
        }
      } finally {
        lock.release()
      }
      return found
    } finally {
      await client.logout()
    }
  }

describe.skipIf(!run)('sending as the mailbox itself', () => {
  it('sets up the account\'s SMTP server on the settings page', async () => {
    await page.goto(server.url + '/inbox/settings')
    const card = page.getByTestId('mail-account').filter({ hasText: MAILBOX })
    const sending = card.getByTestId('smtp-settings')
    await expect.poll(() => sending.getByTestId('smtp-summary').innerText()).toMatch(/Not set up/)
    await sending.getByRole('button', { name: `Set up sending settings of ${MAILBOX}` }).click()
    const form = sending.getByRole('form', { name: `Sending settings of ${MAILBOX}` })
    // a custom account starts from its IMAP host, on the SSL/TLS port
    expect(await form.getByLabel('SMTP Server', { exact: true }).inputValue()).toBe(dovecot.host)
    await form.getByLabel('Port', { exact: true }).fill(String(smtp.port))
    await card.screenshot({ path: `${SCREENSHOTS}/smtp-settings-1280.png` })
    await form.getByRole('button', { name: 'Save sending settings' }).click()
    await toast(page, 'Sending settings saved').waitFor()
    await expect.poll(() => sending.getByTestId('smtp-summary').innerText())
      .toBe(`Compose can send as this address through ${dovecot.host}:${smtp.port} (SSL/TLS), with the same login as IMAP.`)
    await card.screenshot({ path: `${SCREENSHOTS}/smtp-settings-saved-1280.png` })
  })

  it('a reply to mail that came to the mailbox starts from it (mailboxes listed before aliases), leaves through its server and lands in its Sent folder', async () => {
    await openMessage(page, server.url + '/inbox', 'Dinner on Friday', /Alex/)
    await page.getByTestId('email-detail').getByRole('button', { name: 'Reply' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Reply to: Dinner on Friday' })
    const form = dialog.getByRole('form', { name: 'Compose Email' })
    const from = form.getByLabel('From')
    expect(await from.inputValue()).toBe(`mailbox:${providerId}`)
    expect(await from.locator('option:not([disabled])').allInnerTexts()).toEqual([MAILBOX, ALIAS])
    expect(await from.locator('optgroup').evaluateAll((groups) => groups.map((g) => g.getAttribute('label')))).toEqual(['Your mailboxes', 'Aliases'])
    await dialog.getByText(`Sent through ${MAILBOX}'s own mail server, as that address: the recipient sees it.`).waitFor()
    await page.screenshot({ path: `${SCREENSHOTS}/compose-from-mailbox-1280.png` })
    await form.getByLabel('Message').press('Control+Home')
    await form.getByLabel('Message').pressSequentially('Friday works for me.')
    await form.getByRole('button', { name: 'Send' }).click()
    await toast(page, 'Reply sent').waitFor()

    const sent = await waitFor(smtp, 'message', () => smtp.messages.find((m) => m.to.includes(FRIEND)), 30_000)
    expect(sent).toMatchObject({ user: MAILBOX, from: MAILBOX, secure: true })
    const parsed = await simpleParser(sent.raw)
    expect(parsed.from?.text).toBe(MAILBOX)
    expect(parsed.subject).toBe('Re: Dinner on Friday')
    expect(parsed.inReplyTo).toBe('<dinner@friends.example>')
    expect(parsed.text).toMatch(/^Friday works for me\./)
    expect(env.relay.messages.some((m) => m.to.includes(FRIEND))).toBe(false) // not through our relay
    // the status the page polls every 10 s says sent
    await toast(page, 'Email sent successfully').waitFor({ timeout: 40_000 })
    await expect.poll(async () => (await dovecot.flags(MAILBOX, 'Sent')).get('Re: Dinner on Friday'), { timeout: 20_000 }).toEqual(['\\Seen'])
  }, 90_000)

  it('a draft written as the mailbox is saved to its Drafts folder, listed there, reopened, replaced on each save and gone once sent', async () => {
    await page.goto(server.url + '/inbox')
    await page.getByRole('button', { name: 'Compose' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Compose Email' })
    const form = dialog.getByRole('form', { name: 'Compose Email' })
    await form.getByLabel('From').selectOption(`mailbox:${providerId}`)
    await form.getByLabel('To', { exact: true }).fill(FRIEND)
    await form.getByLabel('Subject').fill('Weekend trip')
    await form.getByLabel('Message').fill('Shall we go hiking?')
    await expect.poll(() => form.getByTestId('draft-status').innerText(), { timeout: 15_000 }).toBe('Draft saved')
    await page.screenshot({ path: `${SCREENSHOTS}/compose-draft-saved-1280.png` })
    await expect.poll(drafts, { timeout: 20_000, interval: 250 }).toEqual(['Shall we go hiking?'])
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    // the sync lists the Drafts folder in the sidebar; the draft opens and goes back to compose
    await expect.poll(async () => {
      await page.goto(server.url + '/inbox')
      return page.getByRole('link', { name: /^Drafts/ }).waitFor({ timeout: 3000 }).then(() => true, () => false)
    }, { timeout: 30_000, interval: 500 }).toBe(true)
    await page.getByRole('link', { name: /^Drafts/ }).click()
    await emailRow(page, 'Weekend trip').getByRole('button', { name: /sam/ }).click()
    await page.getByTestId('email-detail').getByRole('heading', { name: 'Weekend trip', level: 1 }).waitFor()
    await page.screenshot({ path: `${SCREENSHOTS}/inbox-draft-detail-1280.png` })
    await page.getByTestId('email-detail').getByRole('button', { name: 'Edit draft' }).click()
    const again = page.getByRole('dialog', { name: 'Edit draft: Weekend trip' }).getByRole('form', { name: 'Compose Email' })
    expect(await again.getByLabel('From').inputValue()).toBe(`mailbox:${providerId}`)
    expect(await again.getByLabel('To', { exact: true }).inputValue()).toBe(FRIEND)
    expect((await again.getByLabel('Message').inputValue()).trim()).toBe('Shall we go hiking?')
    await again.getByLabel('Message').fill('Shall we go hiking? Bring boots.')
    // one copy on the server, the newest: the synced one it was reopened from is replaced
    await expect.poll(drafts, { timeout: 20_000, interval: 250 }).toEqual(['Shall we go hiking? Bring boots.'])
    await expect.poll(() => again.getByTestId('draft-status').innerText(), { timeout: 15_000 }).toBe('Draft saved')
    await again.getByRole('button', { name: 'Send' }).click()
    await toast(page, 'Email sent').waitFor()
    const sent = await waitFor(smtp, 'message', () => smtp.messages.find((m) => m.raw.includes('Subject: Weekend trip')), 30_000)
    expect((await simpleParser(sent.raw)).text?.trim()).toBe('Shall we go hiking? Bring boots.')
    await expect.poll(drafts, { timeout: 20_000, interval: 250 }).toEqual([])
  }, 120_000)

  it('a mail sent while its draft\'s first save is still on the way takes that draft out of the folder too', async () => {
    await page.goto(server.url + '/inbox')
    await page.getByRole('button', { name: 'Compose' }).first().click()
    const form = page.getByRole('dialog', { name: 'Compose Email' }).getByRole('form', { name: 'Compose Email' })
    // the first save is held until Send has been pressed
    let releaseSave = () => {}
    const held = new Promise<void>((resolve) => (releaseSave = resolve))
    let savedId: string | undefined
    await page.route('**/api/drafts/*', async (route) => {
      if (route.request().method() === 'PUT') {
        savedId ??= new URL(route.request().url()).pathname.split('/').pop()
        await held
      }
      await route.continue()
    })
    try {
      await form.getByLabel('From').selectOption(`mailbox:${providerId}`)
      await form.getByLabel('To', { exact: true }).fill(FRIEND)
      await form.getByLabel('Subject').fill('Quick note')
      await form.getByLabel('Message').fill('Sent before its draft was saved.')
      await expect.poll(() => form.getByTestId('draft-status').innerText(), { timeout: 15_000 }).toBe('Saving draft…')
      const queued = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/email-jobs')
      await form.getByRole('button', { name: 'Send' }).click()
      releaseSave()
      expect((await queued).postDataJSON().draftId).toBe(savedId)
    } finally {
      releaseSave()
      await page.unroute('**/api/drafts/*')
    }
    await toast(page, 'Email sent').waitFor()
    await waitFor(smtp, 'message', () => smtp.messages.find((m) => m.raw.includes('Subject: Quick note')), 30_000)
    await expect.poll(drafts, { timeout: 20_000, interval: 250 }).toEqual([])
  }, 120_000)

  it('a reply to mail an alias forwarded into the mailbox does not start from the mailbox', async () => {
    await openMessage(page, server.url + '/inbox', 'Your order', /Alex/)
    await page.getByTestId('email-detail').getByRole('button', { name: 'Reply' }).first().click()
    const form = page.getByRole('dialog', { name: 'Reply to: Your order' }).getByRole('form', { name: 'Compose Email' })
    expect(await form.getByLabel('From').inputValue()).not.toBe(`mailbox:${providerId}`)
    await page.keyboard.press('Escape')
  })
})
