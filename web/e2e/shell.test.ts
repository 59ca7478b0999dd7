// The shell in a real browser against the real web process.
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, startBrowserSuite, type BrowserSuite } from '../../scripts/testing/browser-suite.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
let db: TestDatabase
let server: WebServer
let browser: Browser
let open: BrowserSuite['open']

beforeAll(async () => {
  if (!run) return
  ;({ db, server, browser, open } = await startBrowserSuite({
    // 1,234 users and 3 aliases, made the way real rows are
    async seed(fresh) {
      await fresh.sql`insert into users (email, auth_method) select 'u' || i || '@example.com', 'email' from generate_series(1, 1234) i`
      await fresh.sql`insert into aliases (user_id, alias, domain, forward_to) select id, 'a' || left(id::text, 8), 'veilmail.test', 'x@example.com' from users limit 3`
    },
  }))
})
afterAll(() => closeBrowserSuite({ db, server, browser }))

describe.skipIf(!run)('web shell', () => {
  it('renders the landing page with figures from the API, at desktop and phone widths', async () => {
    const page = await open('/')
    await page.getByTestId('social-proof').waitFor()
    await expect.poll(() => page.getByTestId('social-proof').innerText()).toBe('1,234 users · 3 aliases created')
    expect(await page.getByTestId('user-count').innerText()).toBe('1k+ users')
    expect(await page.getByRole('link', { name: '_SIGN IN' }).isVisible()).toBe(true)
    for (const text of ['Sign up with email', 'Compatible with', 'Privacy First', 'Unified Inbox', 'Zero Logs Policy', 'Get Started Free', 'Version 1.0.24', 'Made in Lithuania']) {
      expect(await page.getByText(text, { exact: false }).first().isVisible(), text).toBe(true)
    }
    // the footer's line, as the specification words it
    expect(await page.getByTestId('site-footer').getByText('Secure inbox with aliases and end-to-end encryption.', { exact: true }).isVisible()).toBe(true)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'landing-1280.png'), fullPage: true })
    const phone = await open('/', 390)
    await phone.getByTestId('social-proof').waitFor()
    await phone.screenshot({ path: path.join(SCREENSHOTS, 'landing-390.png'), fullPage: true })
    await page.close()
    await phone.close()
  })

  it('keeps the theme choice across a reload', async () => {
    const page = await open('/home')
    await page.evaluate(() => localStorage.removeItem('vite-ui-theme'))
    await page.reload()
    const dark = async () => page.evaluate(() => document.documentElement.classList.contains('dark'))
    const before = await dark()
    await page.getByTestId('theme-toggle').click()
    await expect.poll(dark).toBe(!before)
    const stored = await page.evaluate(() => localStorage.getItem('vite-ui-theme'))
    expect(stored).toBe(before ? 'light' : 'dark')
    await page.reload()
    await expect.poll(dark).toBe(!before)
    await page.close()
  })

  it('shows the 404 page for an unknown route and the auth page on a protected one', async () => {
    const missing = await open('/no/such/page')
    await missing.getByRole('heading', { name: 'Page Not Found', exact: true }).waitFor()
    expect(await missing.title()).toBe('404 Page Not Found')
    await missing.close()
    for (const route of ['/dashboard', '/settings', '/compose', '/decrypt', '/inbox']) {
      const page = await open(route)
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor()
      expect(await page.getByRole('button', { name: 'Sign In' }).isVisible()).toBe(true)
      await page.close()
    }
  })
})
