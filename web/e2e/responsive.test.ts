// Every page at phone (375), tablet (768) and desktop (1280) widths in a real browser against the
// real web process: nothing overflows sideways, no floating button covers a control, and a full-page
// screenshot of each lands in test-results/responsive/ (the dashboard and compose ones also in
// docs/screenshots/, which the README shows). An opened message, /inbox/{id}, needs mail synced from
// an IMAP server: web/e2e/inbox.test.ts checks it at these widths.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, startBrowserSuite } from '../../scripts/testing/browser-suite.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'
import { confirmForwardTarget, registerVerified } from '../../scripts/testing/browser-account.ts'
import { imapCredentials } from '../../scripts/testing/mailbox-accounts.ts'

const run = browserAvailable()
const WIDTHS = [375, 768, 1280] as const
const OUT = path.join(SCREENSHOTS, 'responsive')
const DOCS = path.join(import.meta.dirname, '..', '..', 'docs', 'screenshots')
const PUBLIC_PAGES = ['/', '/auth', '/register', '/about', '/privacy', '/terms', '/gdpr', '/transparency', '/no-such-page']
const SIGNED_IN_PAGES = ['/dashboard', '/compose', '/decrypt', '/settings', '/inbox', '/inbox/settings']
let db: TestDatabase
let server: WebServer
let browser: Browser

beforeAll(async () => {
  if (!run) return
  mkdirSync(OUT, { recursive: true })
  mkdirSync(DOCS, { recursive: true })
  ;({ db, server, browser } = await startBrowserSuite({ env: { MAIL_DOMAINS: 'veilmail.test,veil.test' } }))
}, 60_000)
afterAll(() => closeBrowserSuite({ db, server, browser }))

async function signedInContext(width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  // a fixed name (each test file has its own database), so the README's screenshots only change with the UI
  const email = `alex.${width}@example.com`
  const user = await registerVerified(context.request, server.url, db.sql, email)
  for (const [alias, forwardTo, notes] of [
    ['shopping', 'me@mailbox.example', 'online shops'],
    ['newsletters', 'me@mailbox.example, https://hooks.example/in', 'read later'],
  ]) {
    const created = await context.request.post(`${server.url}/api/aliases/${user.id}`, { data: { alias: `${alias}-${width}`, domain: 'veilmail.test', forwardTo, notes } })
    expect(created.status()).toBe(201)
  }
  await confirmForwardTarget(context.request, server.url, db.sql, 'me@mailbox.example')
  // a mailbox connected as the settings form does it; no sync process runs here, so it stays
  // "Connecting…" with no mail: /inbox shows its list (with no account it would go to the settings)
  const mailbox = `alex.${width}@mailbox.example`
  const connected = await context.request.post(`${server.url}/api/email-providers`, {
    data: { provider: 'other', email: mailbox, encryptedCredentials: imapCredentials({ email: mailbox, password: 'app password', host: 'imap.mailbox.example', port: 993 }) },
  })
  expect(connected.status()).toBe(202)
  return context
}

/** What a reader checks: no sideways scrolling, and a floating button covers no control. */
async function checkLayout(page: Page, label: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `${label} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0)
  const covered = await page.evaluate(() => {
    const floating = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => getComputedStyle(el).position === 'fixed' && el.offsetParent !== null && el.getBoundingClientRect().height > 0 && !el.closest('header, nav, [role="region"]'))
    const controls = [...document.querySelectorAll<HTMLElement>('a, button, input, select, textarea, [role="switch"]')]
    const hits: string[] = []
    for (const f of floating) {
      const a = f.getBoundingClientRect()
      for (const c of controls) {
        if (f.contains(c) || c.contains(f)) continue
        const b = c.getBoundingClientRect()
        if (b.width && b.height && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) hits.push(`${f.textContent?.trim()} covers ${c.textContent?.trim() || c.getAttribute('aria-label') || c.tagName}`)
      }
    }
    return hits
  })
  expect(covered, label).toEqual([])
}

async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: path.join(OUT, name), fullPage: true })
}

const slug = (route: string) => (route === '/' ? 'landing' : route.slice(1).replace(/\//g, '-'))

describe.skipIf(!run)('every page at 375, 768 and 1280 px', () => {
  for (const width of WIDTHS) {
    it(`public pages at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      const page = await context.newPage()
      for (const route of PUBLIC_PAGES) {
        await page.goto(server.url + route)
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        await page.locator('footer').getByRole('link', { name: '_FEEDBACK' }).waitFor()
        expect(await page.getByTestId('feedback-button').isVisible(), `${route} at ${width}`).toBe(false)
        await checkLayout(page, `${route} at ${width}`)
        await shoot(page, `${slug(route)}-${width}.png`)
      }
      await context.close()
    }, 90_000)

    it(`signed-in pages at ${width} px`, async () => {
      const context = await signedInContext(width)
      const page = await context.newPage()
      for (const route of SIGNED_IN_PAGES) {
        await page.goto(server.url + route)
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        if (route === '/dashboard') await page.locator('[data-testid="alias-row"]').first().waitFor()
        if (route === '/compose') {
          const form = page.getByRole('form', { name: 'Compose Email' })
          await form.getByLabel('From').selectOption({ index: 1 })
          await form.getByLabel('To', { exact: true }).fill('friend@example.org')
          await form.getByLabel('Subject').fill('Dinner on Friday')
          await form.getByLabel('Message').fill('Shall we meet at eight?\nThe usual place.')
        }
        if (route === '/settings') await page.getByText('No encryption keys', { exact: true }).waitFor()
        if (route === '/inbox') await page.getByTestId('list-empty').getByText('No emails found. Try syncing your accounts.', { exact: true }).waitFor()
        if (route === '/inbox/settings') await page.locator(`[data-testid="mail-account"][data-email="alex.${width}@mailbox.example"]`).waitFor()
        expect(await page.getByTestId('feedback-button').isVisible(), `${route} at ${width}`).toBe(false)
        await checkLayout(page, `${route} at ${width}`)
        await shoot(page, `${slug(route)}-${width}.png`)
        if (width === 1280 && (route === '/dashboard' || route === '/compose')) {
          await page.screenshot({ path: path.join(DOCS, `${slug(route)}.png`), fullPage: false })
        }
      }
      await context.close()
    }, 90_000)
  }

  it('floats the Feedback button only beside the content of a wide screen, where it covers nothing', async () => {
    const context = await signedInContext(1600)
    const page = await context.newPage()
    for (const route of ['/', '/dashboard', '/compose']) {
      await page.goto(server.url + route)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      if (route === '/compose') await page.getByRole('form', { name: 'Compose Email' }).waitFor()
      await page.getByTestId('feedback-button').waitFor()
      await checkLayout(page, `${route} at 1600`)
    }
    await shoot(page, 'compose-1600.png')
    await context.close()
  }, 60_000)
})
