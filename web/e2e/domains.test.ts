// Settings → Domains in a real browser against the real web process (issue 29): add a domain, the
// records shown with copy buttons, Check DNS through DNS_SERVERS (the test's DNS stand-in) shows
// each record's state and what was found instead, and the domain turns active.
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'
import { closeBrowserSuite, screenshotOnFailure, startBrowserSuite, type BrowserSuite } from '../../scripts/testing/browser-suite.ts'
import { startDnsStandIn, type DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import { publishMx, publishTxt } from '../../scripts/testing/domain-dns.ts'
import { seriousViolations } from '../../scripts/testing/axe.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'
import { generateWebhookSecret, sealWebhookSecret } from '../../lib/webhook-secret.ts'

const run = browserAvailable()
let suite: BrowserSuite
let dns: DnsStandIn
let context: BrowserContext
let page: Page

beforeAll(async () => {
  if (!run) return
  dns = await startDnsStandIn()
  suite = await startBrowserSuite({ env: { MAIL_DOMAINS: 'veilmail.test,veil.test', MX_HOSTNAME: 'mx.veilmail.test', DNS_SERVERS: dns.server } })
  context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
  page = await context.newPage()
  page.setDefaultTimeout(10_000)
  await registerVerified(context.request, suite.server.url, suite.db.sql, `domains-${crypto.randomUUID().slice(0, 8)}@example.com`)
}, 60_000)
afterEach(screenshotOnFailure(() => page, 'domains-failure.png'))
afterAll(async () => {
  await closeBrowserSuite(suite ?? {})
  await dns?.close()
})

describe.skipIf(!run)('Settings → Domains', () => {
  it('add a domain, copy its records, check: missing, wrong with what was found, then found and active', async () => {
    await page.goto(suite.server.url + '/settings')
    const card = page.getByTestId('domains-card')
    await card.getByText('No domains yet.').waitFor()

    // our own domains are refused with the reason
    await card.getByLabel('Domain').fill('me.veilmail.test')
    await card.getByRole('button', { name: 'Add domain' }).click()
    await card.getByRole('alert').getByText('This is one of our own domains: it cannot be added.').waitFor()

    await card.getByLabel('Domain').fill('My-Shop.example')
    await card.getByRole('button', { name: 'Add domain' }).click()
    const item = card.getByTestId('domain-item')
    await item.getByRole('heading', { name: 'my-shop.example' }).waitFor()
    expect(await item.getByTestId('domain-status').innerText()).toBe('Pending verification')
    for (const purpose of ['ownership', 'mx', 'spf', 'dkim', 'dmarc']) expect(await item.getByTestId(`state-${purpose}`).innerText()).toBe('Not checked')

    // the values, as the user copies them to their DNS host
    const copy = async (label: string) => {
      await item.getByRole('button', { name: `Copy ${label}` }).click()
      return page.evaluate(() => navigator.clipboard.readText())
    }
    const ownership = await copy('Ownership value')
    expect(ownership).toMatch(/^veilmail-verification=[0-9a-f]{32}$/)
    const dkimName = await copy('DKIM name')
    expect(dkimName).toBe('veilmail._domainkey.my-shop.example')
    const dkim = await copy('DKIM value')
    expect(dkim).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/)
    const spf = await copy('SPF value')
    expect(spf).toBe('v=spf1 include:veilmail.test ~all')
    expect(await copy('Mail (MX) value')).toBe('10 mx.veilmail.test')
    const dmarc = await copy('DMARC (suggested) value')

    await item.getByRole('button', { name: 'Check DNS' }).click()
    await expect.poll(() => item.getByTestId('state-ownership').innerText()).toBe('Missing')
    expect(await item.getByTestId('state-mx').innerText()).toBe('Missing')

    // published, but the MX points elsewhere and SPF lacks us
    publishTxt(dns, 'my-shop.example', [ownership, 'v=spf1 include:_spf.elsewhere.example -all'])
    publishTxt(dns, dkimName, [dkim])
    publishMx(dns, 'my-shop.example', ['mx.elsewhere.example'])
    await item.getByRole('button', { name: 'Check DNS' }).click()
    await expect.poll(() => item.getByTestId('domain-status').innerText()).toBe('Active')
    expect(await item.getByTestId('state-ownership').innerText()).toBe('Found')
    expect(await item.getByTestId('state-dkim').innerText()).toBe('Found')
    expect(await item.getByTestId('state-mx').innerText()).toBe('Wrong value')
    expect(await item.getByTestId('found-mx').innerText()).toContain('10 mx.elsewhere.example')
    expect(await item.getByTestId('state-spf').innerText()).toBe('Wrong value')
    expect(await item.getByTestId('found-spf').innerText()).toContain('include:_spf.elsewhere.example')
    expect(await item.getByTestId('state-dmarc').innerText()).toBe('Missing')
    await page.screenshot({ path: path.join(SCREENSHOTS, 'settings-domain-checked.png'), fullPage: true })

    publishTxt(dns, 'my-shop.example', [ownership, spf])
    publishMx(dns, 'my-shop.example', ['mx.veilmail.test'])
    publishTxt(dns, '_dmarc.my-shop.example', [dmarc])
    await item.getByRole('button', { name: 'Check DNS' }).click()
    for (const purpose of ['ownership', 'mx', 'spf', 'dkim', 'dmarc']) await expect.poll(() => item.getByTestId(`state-${purpose}`).innerText()).toBe('Found')

    // catch-all: off by default, on with a switch; only a confirmed address as its target
    const catchAll = item.getByTestId('catch-all')
    expect(await catchAll.getByRole('switch').getAttribute('aria-checked')).toBe('false')
    await catchAll.getByRole('switch').click()
    await expect.poll(() => catchAll.getByRole('switch').getAttribute('aria-checked')).toBe('true')
    await catchAll.getByLabel('Forward new aliases to').fill('stranger@example.org')
    await catchAll.getByRole('button', { name: 'Save' }).click()
    await catchAll.getByRole('alert').getByText('Choose one of your confirmed forwarding addresses').waitFor()
    const listed = await (await context.request.get(`${suite.server.url}/api/domains`)).json()
    expect(listed.customDomains[0]).toMatchObject({ catchAll: true, defaultTarget: null })
    await page.screenshot({ path: path.join(SCREENSHOTS, 'settings-domain-active.png'), fullPage: true })
    // the records, states, the catch-all switch and its error pass axe (WCAG 2 AA) in both themes
    for (const theme of ['light', 'dark'] as const) {
      // loaded in that theme (a theme switched on a shown page is mid-transition for a moment)
      await page.emulateMedia({ colorScheme: theme })
      await page.reload()
      await item.getByTestId('catch-all').waitFor()
      await catchAll.getByLabel('Forward new aliases to').fill('stranger@example.org')
      await catchAll.getByRole('button', { name: 'Save' }).click()
      await catchAll.getByRole('alert').waitFor()
      expect(await seriousViolations(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })

    // the personal subdomain, chosen once
    const sub = page.getByTestId('subdomain-card')
    await sub.getByLabel('Username').fill('admin')
    await sub.getByRole('button', { name: 'Choose' }).click()
    await sub.getByRole('alert').waitFor()
    const username = `browser-${crypto.randomUUID().slice(0, 6)}`
    await sub.getByLabel('Username').fill(username)
    await sub.getByRole('button', { name: 'Choose' }).click()
    await expect.poll(() => sub.getByTestId('subdomain').innerText()).toBe(`anything@${username}.veilmail.test`)

    // an alias the catch-all made (workers/mx/first-use-mx.test.ts makes them through the real MX):
    // the dashboard marks it as made on first use
    const session = await (await context.request.get(`${suite.server.url}/api/auth/session`)).json()
    const id = crypto.randomUUID()
    await suite.db.sql`insert into aliases (id, user_id, alias, domain, forward_to, made_by, webhook_secret_sealed)
      values (${id}, ${session.user.id}, 'newshop', 'my-shop.example', ${session.user.email}, 'catch-all', ${sealWebhookSecret(TEST_SECRET_KEY, id, generateWebhookSecret())})`

    // the dashboard's alias form offers the active domain
    await page.goto(suite.server.url + '/dashboard')
    const row = page.locator('[data-testid="alias-row"][data-alias="newshop@my-shop.example"]')
    await expect.poll(() => row.getByTestId('alias-made-by').innerText()).toBe('made on first use (catch-all)')
    await row.scrollIntoViewIfNeeded()
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-made-on-first-use.png') })
    await expect.poll(async () => (await page.locator('select option').allInnerTexts()).join(' ')).toContain('my-shop.example')

    // removing asks first
    await page.goto(suite.server.url + '/settings')
    await page.getByRole('button', { name: 'Remove my-shop.example' }).click()
    await page.getByRole('button', { name: 'Remove domain' }).click()
    await card.getByText('No domains yet.').waitFor()

    // the privacy page says what is kept of a domain
    await page.goto(suite.server.url + '/privacy')
    const kept = page.getByText('Your domains.', { exact: true })
    await kept.scrollIntoViewIfNeeded()
    await page.screenshot({ path: path.join(SCREENSHOTS, 'privacy-domains.png') })
  }, 60_000)
})
