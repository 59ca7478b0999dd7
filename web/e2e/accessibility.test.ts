// Every page of the app, in the light and the dark theme, checked by axe-core (WCAG 2.0/2.1 A and
// AA) in Chromium against the real web process: no serious or critical violation. A page is checked
// once its content has loaded (its heading, and what it fetches: the aliases, the synced mail, the
// opened message), since axe only sees what is drawn. Mail comes from a private Dovecot through the
// real sync worker, so the list and an opened message (/inbox/{id}) are the real ones.
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations, type AxeFinding } from '../../scripts/testing/axe.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { connectMailbox, createAliasFromPage, startInboxBrowser, type InboxBrowser } from '../../scripts/testing/inbox-browser.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const MAILBOX = 'reader@example.test'
const THEMES = ['light', 'dark'] as const
// every path of web/app/router.tsx; the pages that act on a link's token show their state without one
const PUBLIC_PAGES = ['/', '/home', '/auth', '/auth/second-factor', '/register', '/check-email', '/verify-email', '/forgot-password', '/reset-password', '/confirm-target',
  '/about', '/privacy', '/terms', '/gdpr', '/transparency', '/no-such-page']
const SIGNED_IN_PAGES = ['/dashboard', '/compose', '/decrypt', '/settings', '/inbox', '/inbox/settings', '/inbox/{id}']

let dovecot: Dovecot
let inbox: InboxBrowser | undefined
let server: WebServer
let browser: Browser
let page: Page
let emailId: string

const mail = (from: string, subject: string, minute: number, body: string) => [
  `From: ${from}`, `To: ${MAILBOX}`, `Subject: ${subject}`, `Date: ${new Date(Date.UTC(2026, 10, 20, 9, minute)).toUTCString()}`,
  `Message-ID: <a11y-${minute}@example.test>`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', body, '',
].join('\r\n')

beforeAll(async () => {
  if (!run) return
  dovecot = await startDovecot()
  const password = dovecot.addUser(MAILBOX)
  dovecot.writeMessages(MAILBOX, [
    { raw: mail('Alice Liddell <alice@friends.example>', 'Lunch plans', 1, 'Shall we have lunch on Friday?'), flags: 'S' },
    { raw: mail('Bob Baker <bob@bakery.example>', 'Your order is ready', 2, 'Pick it up any time after nine.') },
  ])
  inbox = await startInboxBrowser(dovecot)
  ;({ server, browser, page } = inbox)
  await registerThroughForm(page, server.url, inbox.env.mailbox, 'reader@example.com')
  expect(await createAliasFromPage(page, 'reader@veilmail.test')).toBe(201)
  await connectMailbox(page, dovecot, MAILBOX, password)
  emailId = await page.evaluate(async () => (await (await fetch('/api/emails')).json()).emails[0].id as string)
}, 180_000)
afterAll(async () => {
  await inbox?.close()
  await dovecot?.stop()
})

/** Waits until the page shows what it loads, then asks axe; the findings, labelled. */
async function check(p: Page, route: string, theme: string): Promise<(AxeFinding & { page: string })[]> {
  try {
    return await loadedThenChecked(p, route, theme)
  } catch (error) {
    await p.screenshot({ path: path.join(SCREENSHOTS, `accessibility-failure-${theme}-${route.replace(/\W+/g, '-')}.png`), fullPage: true }).catch(() => {})
    throw new Error(`${route} (${theme}) at ${p.url()}: ${(error as Error).message}`, { cause: error })
  }
}

async function loadedThenChecked(p: Page, route: string, theme: string): Promise<(AxeFinding & { page: string })[]> {
  await p.getByRole('heading', { level: 1 }).first().waitFor()
  if (route === '/dashboard') await p.locator('[data-testid="alias-row"]').first().waitFor()
  if (route === '/compose') await p.getByRole('form', { name: 'Compose Email' }).waitFor()
  if (route === '/settings') await p.getByText('No encryption keys', { exact: true }).waitFor()
  if (route === '/inbox') await p.getByTestId('email-row').first().waitFor()
  if (route === '/inbox/settings') await p.locator(`[data-testid="mail-account"][data-email="${MAILBOX}"]`).waitFor()
  if (route === '/inbox/{id}') await p.getByTestId('email-detail').getByText('Shall we have lunch on Friday?').or(p.getByTestId('email-detail').getByText('Pick it up any time after nine.')).first().waitFor()
  await p.waitForLoadState('networkidle')
  // the theme the page really shows
  expect(await p.evaluate(() => document.documentElement.className)).toContain(theme)
  return (await seriousViolations(p)).map((v) => ({ page: `${route} (${theme})`, ...v }))
}

describe.skipIf(!run)('accessibility (axe-core, WCAG 2 AA)', () => {
  it.each(THEMES)('no serious or critical violation on a public page in the %s theme', async (theme) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: theme })
    const p = await context.newPage()
    p.setDefaultTimeout(15_000)
    const findings = []
    for (const route of PUBLIC_PAGES) {
      await p.goto(server.url + route)
      findings.push(...(await check(p, route, theme)))
    }
    await context.close()
    expect(findings).toEqual([])
  }, 120_000)

  it.each(THEMES)('no serious or critical violation on a signed-in page in the %s theme', async (theme) => {
    await page.emulateMedia({ colorScheme: theme })
    const findings = []
    for (const route of SIGNED_IN_PAGES) {
      await page.goto(server.url + route.replace('{id}', emailId))
      findings.push(...(await check(page, route, theme)))
    }
    expect(findings).toEqual([])
  }, 120_000)
})
