// Reply all in a real browser (issue 26): a private Dovecot synced by the real sync worker into the
// real web process; a message sent to several people (the user's mailbox among them, in another
// case, and the user's alias in Cc) is opened, `a` opens Reply all with To = its Reply-To (else
// the sender would be) and the other To recipients, Cc = the Cc, none of the user's own addresses; sent as the mailbox through
// its SMTP server (a stand-in with AUTH under the same test CA), one message reaches every
// recipient, and the original gets \Answered on Dovecot. The Cc link adds a Cc to any mail.
import path from 'node:path'
import { simpleParser, type AddressObject } from 'mailparser'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { dovecotAvailable, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { openMessage } from '../../scripts/testing/inbox-browser.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import type { MailboxSmtpStandIn } from '../../scripts/testing/mailbox-smtp-stand-in.ts'
import { startSendingMailboxBrowser, type SendingMailboxBrowser } from '../../scripts/testing/sending-mailbox-browser.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const MAILBOX = 'rae@mailbox.example'
const ALIAS = 'rae.club@veilmail.test'
const CRLF = '\r\n'

let env: MailEnv
let dovecot: Dovecot
let smtp: MailboxSmtpStandIn
let inbox: SendingMailboxBrowser | undefined
let server: WebServer
let page: Page

const toast = (p: Page, title: string) => p.getByTestId('toast').filter({ has: p.getByText(title, { exact: true }) })
const addresses = (field: AddressObject | AddressObject[] | undefined) => [field ?? []].flat().flatMap((a) => a.value.map((v) => v.address))

beforeAll(async () => {
  if (!run) return
  inbox = await startSendingMailboxBrowser({ mailbox: MAILBOX, alias: ALIAS, account: 'rae@example.com', messages: [{
    raw: [
      'From: Alex <alex@friends.example>', `To: Bea <bea@friends.example>, ${MAILBOX.toUpperCase()}, Cy <cy@work.example>`,
      `Cc: dee@friends.example, ${ALIAS}, Bea@Friends.example`, 'Reply-To: Climbing club <club@friends.example>', 'Subject: Climbing on Sunday',
      `Date: ${new Date(Date.UTC(2026, 10, 22, 9, 0)).toUTCString()}`, 'Message-ID: <climbing@friends.example>',
      'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', 'Who is in for Sunday?', '',
    ].join(CRLF),
    flags: 'S',
  }] })
  ;({ env, server, page, dovecot, smtp } = inbox)
  // the account's SMTP server, as its settings page saves it (send-as-mailbox.test.ts walks that page)
  await env.db.sql`update email_providers set smtp_host = ${dovecot.host}, smtp_port = ${smtp.port}, smtp_security = 'tls' where id = ${inbox.providerId}`
}, 180_000)
afterEach(screenshotOnFailure(() => page, 'inbox-reply-all-failure.png'))
afterAll(() => inbox?.close())

describe.skipIf(!run)('reply all', () => {
  it('`a` answers the Reply-To and everyone but the user, as the mailbox, in one message, and the original gets \\Answered', async () => {
    await openMessage(page, server.url + '/inbox', 'Climbing on Sunday', /Alex/)
    const detail = page.getByTestId('email-detail')
    await detail.getByRole('button', { name: 'Reply all' }).first().waitFor()
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-reply-all-detail-1280.png') })
    await page.setViewportSize({ width: 375, height: 812 })
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-reply-all-detail-375.png') })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.keyboard.press('a')
    const dialog = page.getByRole('dialog', { name: 'Reply all to: Climbing on Sunday' })
    const form = dialog.getByRole('form', { name: 'Compose Email' })
    // the mailbox the mail came to answers it; neither it nor the alias is a recipient
    expect(await form.getByLabel('From').inputValue()).toMatch(/^mailbox:/)
    expect(await form.getByLabel('To', { exact: true }).inputValue()).toBe('club@friends.example, bea@friends.example, cy@work.example')
    expect(await form.getByLabel('Cc', { exact: true }).inputValue()).toBe('dee@friends.example')
    expect(await form.getByLabel('Subject').inputValue()).toBe('Re: Climbing on Sunday')
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-reply-all-1280.png') })
    await form.getByLabel('Message').press('Control+Home')
    await form.getByLabel('Message').pressSequentially('Count me in.')
    await form.getByRole('button', { name: 'Send' }).click()
    await toast(page, 'Reply sent').waitFor()

    const sent = await waitFor(smtp, 'message', () => smtp.messages.find((m) => m.raw.includes('Count me in.')), 30_000)
    expect(sent).toMatchObject({ user: MAILBOX, from: MAILBOX, to: ['club@friends.example', 'bea@friends.example', 'cy@work.example', 'dee@friends.example'] })
    expect(smtp.messages.filter((m) => m.raw.includes('Count me in.'))).toHaveLength(1)
    const parsed = await simpleParser(sent.raw)
    expect(addresses(parsed.to)).toEqual(['club@friends.example', 'bea@friends.example', 'cy@work.example'])
    expect(addresses(parsed.cc)).toEqual(['dee@friends.example'])
    expect(parsed.inReplyTo).toBe('<climbing@friends.example>')
    expect(parsed.subject).toBe('Re: Climbing on Sunday')
    await expect.poll(async () => (await dovecot.flags(MAILBOX)).get('Climbing on Sunday'), { timeout: 30_000 }).toEqual(expect.arrayContaining(['\\Answered', '\\Seen']))
  }, 90_000)

  it('any mail can get a Cc through the Cc link; a bad address is named under its field', async () => {
    await page.goto(server.url + '/inbox')
    await page.getByRole('button', { name: 'Compose' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Compose Email' })
    const form = dialog.getByRole('form', { name: 'Compose Email' })
    await form.getByRole('button', { name: 'Add Cc recipients' }).waitFor()
    expect(await form.getByLabel('Cc', { exact: true }).count()).toBe(0)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'compose-cc-link-1280.png') })
    await form.getByRole('button', { name: 'Add Cc recipients' }).click()
    const cc = form.getByLabel('Cc', { exact: true })
    await expect.poll(() => cc.evaluate((el) => el === document.activeElement)).toBe(true)
    await form.getByLabel('From').selectOption({ label: MAILBOX })
    await form.getByLabel('To', { exact: true }).fill('fay@friends.example')
    await cc.fill('gus@friends.example, not-an-address')
    await form.getByLabel('Subject').fill('Gear list')
    await form.getByLabel('Message').fill('Ropes and shoes.')
    await form.getByRole('button', { name: 'Send' }).click()
    await dialog.getByText('"not-an-address" is not a valid email address').waitFor()
    expect(await cc.getAttribute('aria-invalid')).toBe('true')
    await page.screenshot({ path: path.join(SCREENSHOTS, 'compose-cc-error-1280.png') })
    await cc.fill('gus@friends.example, hal@work.example')
    await form.getByRole('button', { name: 'Send' }).click()
    await toast(page, 'Email sent').waitFor()
    const sent = await waitFor(smtp, 'message', () => smtp.messages.find((m) => m.raw.includes('Ropes and shoes.')), 30_000)
    expect(sent.to).toEqual(['fay@friends.example', 'gus@friends.example', 'hal@work.example'])
  }, 60_000)
})
