// Compose in a real browser against the real web process, with the real delivery worker and a
// relay stand-in behind it: queue → toast → relay → "Email sent successfully" from the 10 s poll.
import path from 'node:path'
import { armor, Decrypter, generateX25519Identity, identityToRecipient } from 'age-encryption'
import { simpleParser, type ParsedMail } from 'mailparser'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, launchBrowser, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { startWebServer, type WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
const suffix = crypto.randomUUID().slice(0, 6)
const alias = `writer-${suffix}`
const address = `${alias}@veilmail.test`
let env: MailEnv
let server: WebServer
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  if (!run) return
  env = await createMailEnv({ env: { UNDO_SECONDS: '2' } })
  // The web process seals job content with SECRET_KEY and the in-process worker opens it: same key.
  server = await startWebServer(env.db.url, {
    OUTBOUND_SMTP_URL: env.relay.url, UNDO_SECONDS: '2', SECRET_KEY: env.config.secretKey, MAIL_DOMAINS: env.config.mailDomains.join(','),
    EMAIL_RETRY_DELAY_SECONDS: '1',
  })
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  page = await context.newPage()
  page.setDefaultTimeout(10_000) // fail on the step that waits, inside the test's own timeout
})
afterEach(screenshotOnFailure(() => page, 'compose-failure.png'))
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await env?.close()
})

const toast = (p: Page, title: string) => p.getByTestId('toast').filter({ has: p.getByText(title, { exact: true }) })
// From the top: a full-page capture of a scrolled page draws the sticky nav bar mid-page.
async function screenshot(p: Page, name: string) {
  await p.evaluate(() => window.scrollTo(0, 0))
  await p.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true })
}
const form = (p: Page) => p.getByRole('form', { name: 'Compose Email' })

const register = (p: Page, email: string) => registerThroughForm(p, server.url, env.mailbox, email)

/** The alias comes from the API, as the dashboard would create it, in the page's own session. */
async function createAliasInPage(p: Page, name: string) {
  const status = await p.evaluate(async (aliasName) => {
    const { user } = await (await fetch('/api/auth/session')).json()
    const res = await fetch(`/api/aliases/${user.id}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ alias: aliasName, domain: 'veilmail.test', forwardTo: 'owner@example.com' }),
    })
    return res.status
  }, name)
  expect(status).toBe(201)
}

async function fillMessage(p: Page, to: string, subject: string, body: string) {
  await form(p).getByLabel('From').selectOption({ label: address })
  await form(p).getByLabel('To', { exact: true }).fill(to)
  await form(p).getByLabel('Subject').fill(subject)
  await form(p).getByLabel('Message').fill(body)
}

/** The message the relay got for `to`, parsed. */
async function relayed(to: string): Promise<ParsedMail> {
  const message = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes(to)), 15_000)
  expect(message.from).toBe(address)
  return simpleParser(message.raw)
}

const jobStatus = async (to: string) =>
  (await env.db.sql<{ status: string }[]>`select status from email_jobs where recipient_email = ${to}`)[0]?.status

describe.skipIf(!run)('compose in the browser', () => {
  it('shows the steps and a Dashboard link to a user without aliases, without asking for SMTP credentials', async () => {
    const fresh = await browser.newPage({ viewport: { width: 390, height: 844 } })
    await register(fresh, `no-alias.${suffix}@example.com`)
    await fresh.goto(server.url + '/compose')
    await fresh.getByRole('heading', { name: 'Compose Email', level: 1 }).waitFor()
    const notice = fresh.getByRole('region', { name: 'You need an alias to send email' })
    await notice.waitFor()
    expect(await notice.getByRole('listitem').allInnerTexts()).toEqual(['Create an alias in the Dashboard', 'Come back here to compose your email'])
    await notice.getByText('SMTP credentials are only needed to send from a mail app').waitFor()
    expect(await fresh.getByRole('form', { name: 'Compose Email' }).count()).toBe(0)
    await screenshot(fresh, 'compose-no-aliases-390.png')
    await notice.getByRole('link', { name: 'Go to Dashboard' }).click()
    await fresh.waitForURL('**/dashboard')
    await fresh.close()
  })

  it('shows the form messages and asks for the public key before sending anything', async () => {
    await register(page, `compose.${suffix}@example.com`)
    await createAliasInPage(page, alias)
    await page.goto(server.url + '/compose')
    await page.getByText('Send end-to-end encrypted email from your aliases').waitFor()
    // the heading is there before the aliases are: the form comes with them
    await expect.poll(() => form(page).getByLabel('From').locator('option').allInnerTexts()).toEqual(['Select an alias', address])

    const posts: string[] = []
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()))
    await form(page).getByRole('button', { name: 'Send Email' }).click()
    for (const message of ['Please select a sender alias', 'Please enter a valid email address', 'Subject is required', 'Message body is required']) {
      await form(page).getByText(message).waitFor()
    }
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('fromAlias')

    await form(page).getByLabel('End-to-End Encryption').click()
    await form(page).getByLabel('Share My Public Key').click()
    await form(page).getByRole('button', { name: 'Send Email' }).click()
    await toast(page, 'Public key required').getByText("Please provide the recipient's public key for encryption.").waitFor()
    await form(page).getByText("Recipient's public key is required when encryption is enabled").waitFor()
    // No saved keys: sharing starts on "Enter manually" and the empty textarea is the problem.
    expect(await form(page).getByLabel('Your Public Key').inputValue()).toBe('manual')
    await form(page).getByText('Please select or enter your public key to share').waitFor()
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot(page, 'compose-validation-390.png')
    await page.setViewportSize({ width: 1280, height: 900 })

    await form(page).getByRole('button', { name: 'Reset' }).click()
    expect(await form(page).getByLabel('End-to-End Encryption').getAttribute('aria-checked')).toBe('false')
    expect(await form(page).getByRole('alert').count()).toBe(0)
    expect(posts).toEqual([])
  })

  it('sends, shows "Email sent" with Undo, relays the mail and reports delivery from the status poll', async () => {
    const to = `friend.${suffix}@example.com`
    await fillMessage(page, to, 'Plain hello', 'See you on Tuesday.\nBring the map.')
    await screenshot(page, 'compose-1280.png')
    // As wide as the page header above it, like the cards of the other pages.
    const formBox = await form(page).boundingBox()
    const headerBox = await page.locator('main header').first().boundingBox()
    expect(formBox!.width).toBeGreaterThan(headerBox!.width - 64)
    const sentAt = Date.now()
    await form(page).getByRole('button', { name: 'Send Email' }).click()
    const queued = toast(page, 'Email sent')
    await queued.getByText('Your email is being delivered.').waitFor()
    await queued.getByRole('button', { name: 'Undo' }).waitFor()
    expect(await form(page).getByLabel('To', { exact: true }).inputValue()).toBe('') // the form reset
    await page.screenshot({ path: path.join(SCREENSHOTS, 'compose-queued-toast-1280.png') })

    const mail = await relayed(to)
    expect(mail.subject).toBe('Plain hello')
    expect(mail.text?.trim()).toBe('See you on Tuesday.\nBring the map.')
    await expect.poll(() => jobStatus(to)).toBe('sent')

    // The browser learns it from its own poll, 10 s after queueing.
    await toast(page, 'Email sent successfully').getByText('Your email was delivered successfully.').waitFor({ timeout: 16_000 })
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(9_000)
  }, 45_000)

  it('undoes within the window and says when it is too late', async () => {
    const early = `undo.${suffix}@example.com`
    await fillMessage(page, early, 'Never mind', 'This one is cancelled.')
    await form(page).getByRole('button', { name: 'Send Email' }).click()
    await toast(page, 'Email sent').getByRole('button', { name: 'Undo' }).waitFor()
    expect(await form(page).getByLabel('To', { exact: true }).inputValue()).toBe('') // the form reset on queueing
    await toast(page, 'Email sent').getByRole('button', { name: 'Undo' }).click()
    await toast(page, 'Email sending cancelled').waitFor()
    expect(await jobStatus(early)).toBe('cancelled')
    // The draft comes back into the form, ready to edit and send again.
    await expect.poll(() => form(page).getByLabel('To', { exact: true }).inputValue()).toBe(early)
    expect(await form(page).getByLabel('Subject').inputValue()).toBe('Never mind')
    expect(await form(page).getByLabel('Message').inputValue()).toBe('This one is cancelled.')
    expect(await form(page).getByLabel('From').inputValue()).not.toBe('')
    await screenshot(page, 'compose-undone-draft-1280.png')
    await form(page).getByRole('button', { name: 'Reset' }).click()

    const late = `late.${suffix}@example.com`
    await fillMessage(page, late, 'Too late', 'This one goes out.')
    await form(page).getByRole('button', { name: 'Send Email' }).click()
    const queued = toast(page, 'Email sent')
    await queued.hover() // keeps the toast open while the job is delivered
    await relayed(late)
    await expect.poll(() => jobStatus(late)).toBe('sent')
    await queued.getByRole('button', { name: 'Undo' }).click()
    await toast(page, 'Unable to cancel email').getByText('The email may have already been sent.').waitFor()
    expect(env.relay.messages.some((m) => m.to.includes(early))).toBe(false)
  }, 30_000)

  it('encrypts the body in the browser: only an age block leaves it, and the recipient opens it', async () => {
    const recipientIdentity = await generateX25519Identity()
    const recipientKey = await identityToRecipient(recipientIdentity)
    const myKey = await identityToRecipient(await generateX25519Identity())
    const secret = `The vault code is ${suffix}-4471`
    const requests: { url: string; body: string }[] = []
    page.on('request', (r) => requests.push({ url: r.url(), body: r.postData() ?? '' }))

    const to = `secret.${suffix}@example.com`
    await fillMessage(page, to, 'Sealed', secret)
    await form(page).getByLabel('End-to-End Encryption').click()
    await form(page).getByLabel("Recipient's Public Key").fill(recipientKey)
    await form(page).getByLabel('Share My Public Key').click()
    await form(page).getByLabel('Public Key to Share').fill(myKey)
    await form(page).getByRole('note', { name: 'Encryption Notice' }).getByRole('link', { name: 'Settings' }).waitFor()
    await screenshot(page, 'compose-encrypted-1280.png')
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot(page, 'compose-encrypted-390.png')
    await page.setViewportSize({ width: 1280, height: 900 })

    await form(page).getByRole('button', { name: 'Send Email' }).click()
    await toast(page, 'Email sent').waitFor()
    const mail = await relayed(to)

    const post = requests.find((r) => r.url.endsWith('/api/email-jobs'))
    expect(JSON.parse(post!.body)).toMatchObject({
      to, subject: 'Sealed', fromAliasId: expect.any(String), useEncryption: true, recipientPublicKey: recipientKey,
      shareMyPublicKey: true, myPublicKeyToShare: myKey, priority: 0, body: expect.stringMatching(/^-----BEGIN AGE ENCRYPTED FILE-----\n/),
    })
    for (const request of requests) {
      expect(request.url).not.toContain(suffix + '-4471')
      expect(request.body).not.toContain(secret)
    }

    const block = mail.text?.match(/-----BEGIN AGE ENCRYPTED FILE-----[\s\S]+?-----END AGE ENCRYPTED FILE-----/)?.[0]
    expect(block).toBeDefined()
    expect(mail.text).not.toContain(secret)
    expect(mail.text).toContain(myKey) // the shared key follows the body
    const decrypter = new Decrypter()
    decrypter.addIdentity(recipientIdentity)
    expect(await decrypter.decrypt(armor.decode(block!), 'text')).toBe(secret)
  }, 30_000)

  it('announces a retry in progress, then the failure with the relay\'s reply, from the status poll', async () => {
    const to = `bounce.${suffix}@example.com`
    env.relay.rejectRcpt = 451
    try {
      await fillMessage(page, to, 'Greylisted', 'Knock knock.')
      await form(page).getByRole('button', { name: 'Send Email' }).click()
      await toast(page, 'Email sent').waitFor()
      const retry = toast(page, 'Retrying email delivery')
      await retry.waitFor({ timeout: 16_000 })
      expect(await retry.innerText()).toMatch(/Attempt \d of 5 failed: 451 .*rejected by test relay\. Trying again automatically\./)

      // Now the relay refuses for good; let the worker try again at once instead of after its backoff.
      env.relay.rejectRcpt = 550
      await env.db.sql`update pgboss.job set start_after = now() where name = 'send-email' and state = 'retry'`
      await expect.poll(() => jobStatus(to), { timeout: 10_000 }).toBe('failed')
      const failed = toast(page, 'Email delivery failed')
      await failed.waitFor({ timeout: 12_000 })
      expect(await failed.getAttribute('data-variant')).toBe('destructive')
      expect(await failed.innerText()).toMatch(/550 5\.1\.1 rejected by test relay/)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({ path: path.join(SCREENSHOTS, 'compose-delivery-failed-390.png') })
      await page.setViewportSize({ width: 1280, height: 900 })
    } finally {
      env.relay.rejectRcpt = undefined
    }
    expect(env.relay.messages.some((m) => m.to.includes(to))).toBe(false)
  }, 50_000)

  it('says a mail to two has left for one while the other\'s server deferred it, then that it reached both', async () => {
    const first = `first.${suffix}@example.com`
    const late = `late.${suffix}@example.com`
    env.relay.refuse.set(late, 451)
    try {
      await fillMessage(page, `${first}, ${late}`, 'Deferred for one', 'Hello both.')
      await form(page).getByRole('button', { name: 'Send Email' }).click()
      expect((await relayed(first)).subject).toBe('Deferred for one')
      const partly = toast(page, 'Sent to some recipients')
      await partly.waitFor({ timeout: 16_000 })
      expect(await partly.innerText()).toContain(`Sent to 1 of 2; retrying ${late} (server said 451 5.1.1 <${late}>: mailbox unavailable)`)
      await screenshot(page, 'compose-partly-sent.png')
    } finally {
      env.relay.refuse.clear()
    }
    // the deferred one's server takes it now: let the worker try at once instead of after its backoff
    await env.db.sql`update pgboss.job set start_after = now() where name = 'send-email' and state = 'retry'`
    await expect.poll(() => jobStatus(first), { timeout: 16_000 }).toBe('sent')
    await toast(page, 'Email sent successfully').waitFor({ timeout: 16_000 })
    expect(env.relay.messages.filter((m) => m.raw.includes('Subject: Deferred for one')).map((m) => m.to)).toEqual([[first], [late]])
  }, 50_000)
})
