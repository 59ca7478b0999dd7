// Alias management on the dashboard in a real browser against the real web process and database.
import path from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openWebhookSecret, type StoredWebhookSecret } from '../../lib/webhook-secret.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, screenshotOnFailure, startBrowserSuite } from '../../scripts/testing/browser-suite.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { latestLink } from '../../scripts/testing/mailbox.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
// Two preferred domains first (MAIL_DOMAINS order), then the others in alphabetical order.
const DOMAINS = 'veilmail.test,veil.test,zeta.example,alias.example'
const suffix = crypto.randomUUID().slice(0, 6)
const shop = `shop-${suffix}`
const news = `news-${suffix}`
let db: TestDatabase
let server: WebServer
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  if (!run) return
  ;({ db, server, browser } = await startBrowserSuite({ env: { MAIL_DOMAINS: DOMAINS } }))
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
  page = await context.newPage()
  page.setDefaultTimeout(10_000) // fail on the step that waits, inside the test's own timeout
})
afterEach(screenshotOnFailure(() => page, 'dashboard-failure.png'))
afterAll(() => closeBrowserSuite({ db, server, browser }))

const toast = (title: string) => page.getByTestId('toast').getByText(title, { exact: true })
const row = (address: string): Locator => page.locator(`[data-testid="alias-row"][data-alias="${address}"]`)
const rows = () => page.locator('[data-testid="alias-row"]')
const aliasRow = async (alias: string) => (await db.sql`select * from aliases where alias = ${alias}`)[0]
// A full-page capture briefly resizes the viewport, which flips the layout's media query and
// remounts the rows (closing any open details); `fullPage: false` keeps the state.
const screenshot = (name: string, fullPage = true) => page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage })

async function createAlias(alias: string, forwardTo: string, options: { domain?: string; notes?: string } = {}) {
  const form = page.getByRole('form', { name: 'Create New Alias' })
  await form.getByLabel('Alias').fill(alias)
  if (options.domain) await form.getByLabel('Domain').selectOption(options.domain)
  await form.getByLabel('Forward To').fill(forwardTo)
  await form.getByLabel('Notes').fill(options.notes ?? '')
  await form.getByRole('button', { name: 'Create Alias' }).click()
}

describe.skipIf(!run)('dashboard alias management', () => {
  it('registers and shows the create form with the domains in order and an empty list', async () => {
    await registerThroughForm(page, server.url, { sql: db.sql, secretKey: TEST_SECRET_KEY }, `dash.${suffix}@example.com`)
    await page.getByRole('heading', { name: 'Email Forwarding' }).waitFor()
    await page.getByText('Manage privacy aliases and email forwarding settings').waitFor()
    await page.getByText('No aliases yet').waitFor()
    const domain = page.getByLabel('Domain')
    await expect.poll(() => domain.locator('option').allInnerTexts()).toEqual(['@veilmail.test', '@veil.test', '@alias.example', '@zeta.example'])
    expect(await domain.inputValue()).toBe('veilmail.test')
    await page.getByRole('heading', { name: 'Delete Account' }).waitFor()
  })

  it('counts down the notes characters and stops at 128', async () => {
    const notes = page.getByLabel('Notes')
    await notes.fill('Bought shoes')
    expect(await page.getByTestId('notes-remaining').innerText()).toBe('116 characters remaining')
    await notes.fill('x'.repeat(140))
    expect((await notes.inputValue()).length).toBe(128)
    expect(await page.getByTestId('notes-remaining').innerText()).toBe('0 characters remaining')
    await notes.fill('')
  })

  it('creates aliases that reach the database and the list', async () => {
    await createAlias(shop, 'me@example.com', { notes: 'Shoe shop' })
    await toast('Alias Created').waitFor()
    await row(`${shop}@veilmail.test`).waitFor()
    expect(await page.getByLabel('Alias', { exact: true }).first().inputValue()).toBe('') // form reset
    const created = await aliasRow(shop)
    expect(created).toMatchObject({ domain: 'veilmail.test', forwardTo: 'me@example.com', notes: 'Shoe shop', active: true })

    await createAlias(news, 'https://hooks.example.com/in, me@example.com', { domain: 'veil.test' })
    await toast('Alias Created').waitFor()
    await row(`${news}@veil.test`).waitFor()
    expect((await aliasRow(news)).forwardTo).toBe('https://hooks.example.com/in,me@example.com')
    // newest first, with counters and the Created column on a 1280px screen
    expect(await rows().first().getAttribute('data-alias')).toBe(`${news}@veil.test`)
    expect(await row(`${shop}@veilmail.test`).getByTestId('alias-counters').innerText()).toMatch(/0\s*forwarded/)
    expect(await page.getByRole('columnheader', { name: 'Created' }).isVisible()).toBe(true)
  })

  it('copies an address', async () => {
    await row(`${shop}@veilmail.test`).getByRole('button', { name: `Copy ${shop}@veilmail.test` }).click()
    await toast('Copied!').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${shop}@veilmail.test`)
  })

  it('filters by address, target and notes, case-insensitively', async () => {
    const search = page.getByLabel('Search aliases')
    await search.fill('HOOKS.example')
    await expect.poll(() => rows().count()).toBe(1)
    expect(await rows().first().getAttribute('data-alias')).toBe(`${news}@veil.test`)
    await search.fill('shoe SHOP')
    await expect.poll(() => rows().count()).toBe(1)
    expect(await rows().first().getAttribute('data-alias')).toBe(`${shop}@veilmail.test`)
    await search.fill(`${suffix}@VEIL`)
    await expect.poll(() => rows().count()).toBe(2)
    await search.fill('nothing like this')
    await page.getByText('No aliases match "nothing like this"').waitFor()
    await search.fill('')
    await expect.poll(() => rows().count()).toBe(2)
  })

  it('edits inline: Enter saves, Escape cancels', async () => {
    const shopRow = row(`${shop}@veilmail.test`)
    await shopRow.getByRole('button', { name: 'Edit' }).click()
    await shopRow.getByLabel('Notes').fill('Shoes and socks')
    await shopRow.getByLabel('Forwards to').fill('me@example.com, other@example.org')
    await shopRow.getByLabel('Forwards to').press('Enter')
    await toast('Alias Updated').waitFor()
    await shopRow.getByText('Shoes and socks').waitFor()
    expect(await aliasRow(shop)).toMatchObject({ notes: 'Shoes and socks', forwardTo: 'me@example.com,other@example.org' })

    await shopRow.getByRole('button', { name: 'Edit' }).click()
    await shopRow.getByLabel('Alias').fill('renamed')
    await shopRow.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-row-edit-1280.png') })
    await shopRow.getByLabel('Alias').press('Escape')
    await shopRow.getByRole('button', { name: 'Edit' }).waitFor()
    expect(await shopRow.getByTestId('alias-address').innerText()).toBe(`${shop}@veilmail.test`)
    expect((await aliasRow(shop)).notes).toBe('Shoes and socks')
    expect(await aliasRow('renamed')).toBeUndefined()
  })

  it('pauses and resumes with the status switch', async () => {
    const shopRow = row(`${shop}@veilmail.test`)
    const status = shopRow.getByRole('switch', { name: `Forwarding for ${shop}@veilmail.test` })
    expect(await status.getAttribute('aria-checked')).toBe('true')
    await status.click()
    await toast('Alias Paused').waitFor()
    await shopRow.getByText('Paused - emails silently dropped').waitFor()
    expect(await status.getAttribute('aria-checked')).toBe('false')
    expect(await aliasRow(shop)).toMatchObject({ forwardTo: 'null', lastForwardTo: 'me@example.com,other@example.org', active: false })
    await screenshot('dashboard-aliases-1280.png')

    await status.click()
    await toast('Alias Activated').waitFor()
    await expect.poll(() => shopRow.getByText('Paused - emails silently dropped').count()).toBe(0)
    expect(await aliasRow(shop)).toMatchObject({ forwardTo: 'me@example.com,other@example.org', active: true })
    await status.click()
    await toast('Alias Paused').waitFor() // stays paused for the phone screenshot
  })

  it('reveals and rotates the webhook signing secret', async () => {
    const newsRow = row(`${news}@veil.test`)
    await newsRow.getByRole('button', { name: 'Details' }).click()
    const secret = page.getByTestId('webhook-secret')
    expect(await secret.innerText()).toMatch(/^whsec_•+$/)
    await page.getByRole('button', { name: 'Reveal' }).click()
    // stored sealed: the server's key opens it
    const storedSecret = async () => {
      const [row] = await db.sql<StoredWebhookSecret[]>`select id, webhook_secret, webhook_secret_sealed from aliases where alias = ${news}`
      expect(row.webhookSecret).toBeNull()
      return openWebhookSecret(TEST_SECRET_KEY, row)
    }
    const webhookSecret = await storedSecret()
    await expect.poll(() => secret.innerText()).toBe(webhookSecret)
    await secret.scrollIntoViewIfNeeded()
    await screenshot('dashboard-webhook-secret-1280.png', false)

    await page.getByRole('button', { name: 'Rotate' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate Secret' }).click()
    await toast('Secret Rotated').waitFor()
    const rotated = await storedSecret()
    expect(rotated).not.toBe(webhookSecret)
    await expect.poll(() => secret.innerText()).toBe(rotated)
    await newsRow.getByRole('button', { name: 'Details' }).click()
    await expect.poll(() => secret.count()).toBe(0)
  })

  it('refuses reserved names and invalid input before calling the server', async () => {
    await createAlias('Pay-Pal', 'me@example.com')
    await toast('Alias Not Allowed').waitFor()
    await page.getByTestId('toast').getByText('This alias name is reserved. Please choose a different one.').waitFor()

    await createAlias('bad alias!', 'not an address')
    await toast('Validation Error').waitFor()
    await page.getByTestId('toast').getByText('Please fix the errors shown below and try again').waitFor()
    await page.getByText('Invalid alias format').waitFor()
    await page.getByText(/^Please enter valid email addresses and\/or webhook URLs/).waitFor()
    const [{ count }] = await db.sql`select count(*)::int as count from aliases`
    expect(count).toBe(2)
  })

  it('says when an address is taken', async () => {
    await createAlias(shop, 'me@example.com')
    await toast('Creation Failed').waitFor()
    await page.getByText('This alias is already taken', { exact: true }).waitFor()
    await page.getByLabel('Alias', { exact: true }).first().fill('')
  })

  it('pages through many aliases, at most five page buttons, back to page 1 on search or page size', async () => {
    const [{ userId }] = await db.sql`select user_id from aliases where alias = ${shop}`
    await db.sql`insert into aliases (user_id, alias, domain, forward_to, created_at)
      select ${userId}, 'bulk' || i, 'veilmail.test', 'bulk@example.com', now() - i * interval '1 minute' from generate_series(1, 60) i`
    await page.reload()
    await page.getByText('Showing 1–10 of 62').waitFor()
    const pages = page.getByRole('navigation', { name: 'Alias pages' })
    expect(await pages.getByRole('button', { name: /^Page / }).allInnerTexts()).toEqual(['1', '2', '3', '4', '5'])
    await pages.getByRole('button', { name: 'Page 5' }).click()
    expect(await pages.getByRole('button', { name: /^Page / }).allInnerTexts()).toEqual(['3', '4', '5', '6', '7'])
    await pages.getByRole('button', { name: 'Next page' }).click()
    await page.getByText('Showing 51–60 of 62').waitFor()
    await page.getByLabel('Per page').selectOption('25')
    await page.getByText('Showing 1–25 of 62').waitFor()
    await pages.getByRole('button', { name: 'Page 3' }).click()
    await page.getByLabel('Search aliases').fill('bulk')
    await page.getByText('Showing 1–25 of 60').waitFor()
    await page.getByLabel('Per page').selectOption('100')
    await page.getByText('Showing 1–60 of 60').waitFor()
    expect(await pages.count()).toBe(0)
    await db.sql`delete from aliases where alias like 'bulk%'`
    await page.getByLabel('Search aliases').fill('')
    await page.reload()
    await page.getByText('Showing 1–2 of 2').waitFor()
  })

  it('drops the Created column below 1280px and keeps the table down to 1024px', async () => {
    await page.setViewportSize({ width: 1100, height: 900 })
    await expect.poll(() => page.getByRole('columnheader', { name: 'Created' }).isVisible()).toBe(false)
    expect(await page.getByRole('table', { name: 'Your aliases' }).isVisible()).toBe(true)
    await page.getByRole('table').scrollIntoViewIfNeeded()
    await screenshot('dashboard-aliases-1100.png', false)
  })

  it('lays aliases out as cards on a phone and edits them there', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => page.getByRole('table').count()).toBe(0)
    const shopCard = row(`${shop}@veilmail.test`)
    await shopCard.getByText('Paused - emails silently dropped').waitFor()
    await screenshot('dashboard-aliases-390.png')
    await shopCard.getByRole('button', { name: 'Edit' }).click()
    await shopCard.getByLabel('Notes').fill('From the phone')
    await shopCard.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-card-edit-390.png') })
    await shopCard.getByLabel('Notes').press('Enter')
    await toast('Alias Updated').waitFor()
    await shopCard.getByText('From the phone').waitFor()
    // editing notes leaves a paused alias paused
    expect(await aliasRow(shop)).toMatchObject({ notes: 'From the phone', forwardTo: 'null' })
    await shopCard.getByRole('button', { name: 'Details' }).click()
    await shopCard.getByTestId('alias-details').waitFor()
    await shopCard.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-card-details-390.png') })
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('deletes an alias after confirming', async () => {
    const newsRow = row(`${news}@veil.test`)
    await newsRow.getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText(`${news}@veil.test`).waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await newsRow.getByRole('button', { name: 'Delete' }).click()
    await dialog.getByRole('button', { name: 'Delete Alias' }).click()
    await toast('Alias Deleted').waitFor()
    await expect.poll(() => newsRow.count()).toBe(0)
    expect(await aliasRow(news)).toBeUndefined()
    expect(await rows().count()).toBe(1)
  })

  it('shows a new forward target as awaiting confirmation with Resend, until the link mailed to it is followed', async () => {
    const target = `confirm.${suffix}@example.org`
    const name = `confirm-${suffix}`
    await createAlias(name, target)
    await toast('Alias Created').waitFor()
    const entry = row(`${name}@veilmail.test`).locator(`[data-testid="forward-target"][data-target="${target}"]`)
    await expect.poll(() => entry.getAttribute('data-confirmed')).toBe('false')
    await entry.getByTestId('target-pending').getByText('Awaiting confirmation').waitFor()
    await screenshot('dashboard-target-pending-1280.png', false)
    await entry.getByRole('button', { name: 'Resend link' }).click()
    await toast('Confirmation Sent').waitFor()

    const link = await latestLink({ sql: db.sql, secretKey: TEST_SECRET_KEY }, target, '/confirm-target')
    const inbox = await browser.newPage()
    await inbox.goto(link)
    await inbox.getByRole('heading', { name: 'Forwarding Confirmed' }).waitFor()
    await inbox.close()
    await page.reload()
    // the reloaded page fetches the session, the aliases and the targets again: on a busy machine
    // that takes longer than expect.poll's default second, so wait as long as any other step
    await expect.poll(() => entry.getAttribute('data-confirmed'), { timeout: 10_000 }).toBe('true')
    expect(await entry.getByTestId('target-pending').count()).toBe(0)
  })
})
