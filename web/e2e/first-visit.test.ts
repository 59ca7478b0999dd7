// What a newcomer meets first, in a real browser against the real web process: honest landing
// figures on a young instance, copy that claims the inbox as built, one "404", and /auth when signed in.
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, startBrowserSuite, type BrowserSuite } from '../../scripts/testing/browser-suite.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'

const run = browserAvailable()
let db: TestDatabase
let server: WebServer
let browser: Browser
let open: BrowserSuite['open']

beforeAll(async () => {
  if (!run) return
  // A young instance: one user, no alias yet.
  ;({ db, server, browser, open } = await startBrowserSuite({ seed: (fresh) => fresh.sql`insert into users (email, auth_method) values ('first@example.com', 'email')` }))
})
afterAll(() => closeBrowserSuite({ db, server, browser }))

describe.skipIf(!run)('a first visit', () => {
  it('shows "1 user", hides the zero alias count, and never says "0k+"', async () => {
    const page = await open('/')
    await page.getByTestId('social-proof').waitFor()
    await expect.poll(() => page.getByTestId('social-proof').innerText()).toBe('1 user')
    expect(await page.getByTestId('user-count').innerText()).toBe('1 user')
    const text = await page.locator('body').innerText()
    expect(text).not.toMatch(/0k\+|\b1 users\b|aliases created/)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'landing-young-1280.png'), fullPage: true })
    await page.close()
  })

  it('tells of the inbox the build has on the landing, about, terms and sign-in pages, and of nothing it lacks', async () => {
    const claims: Record<string, RegExp> = { '/': /Unified Inbox/, '/about': /Inbox\. Connect Gmail, Yahoo or any IMAP mailbox/, '/terms': /webmail inbox for the IMAP mailboxes you connect/, '/auth': /aliases, keys and inbox/ }
    for (const [route, claim] of Object.entries(claims)) {
      const page = await open(route)
      // The footer renders before a lazily loaded page: wait for the page's own words, not any heading.
      await expect.poll(() => page.locator('main').innerText(), { message: route }).toMatch(claim)
      const text = await page.locator('body').innerText()
      // Outlook sign-in (OAuth2) exists only where the operator registered a Microsoft app, so these
      // pages do not promise it; nor do they claim a count of providers
      expect(text, route).not.toMatch(/OAuth|\d+\+ (IMAP )?providers/i)
      await page.close()
    }
  })

  it('says 404 once on the not-found page', async () => {
    const page = await open('/no/such/page')
    await page.getByRole('heading', { name: 'Page Not Found', exact: true }).waitFor()
    expect(await page.title()).toBe('404 Page Not Found')
    expect((await page.locator('main').innerText()).match(/404/g)).toHaveLength(1)
    await page.close()
  })

  it('sends a signed-in user from /auth to the dashboard, with the Inbox in the nav', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await registerVerified(context.request, server.url, db.sql, `visit.${crypto.randomUUID().slice(0, 8)}@example.com`)
    const page = await context.newPage()
    await page.goto(server.url + '/auth')
    await page.waitForURL('**/dashboard')
    await page.getByRole('heading', { name: 'Email Forwarding' }).waitFor()
    expect(await page.getByRole('heading', { name: 'Welcome Back' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: '_FORWARD' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: '_INBOX' }).getAttribute('href')).toBe('/inbox')
    // Back from the dashboard does not land on a sign-in form again.
    await page.goBack()
    expect(page.url()).not.toMatch(/\/auth$/)
    await context.close()
  })
})
