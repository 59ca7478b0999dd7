// The per-alias spam choice (issue 30) and the "dropped as spam" counter on the dashboard, in a
// real browser against the real web process. The counter is seeded as the MX writes it (the MX's
// own test, workers/mx/spam-filter.test.ts, counts through a real rspamd).
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, screenshotOnFailure, startBrowserSuite } from '../../scripts/testing/browser-suite.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
const suffix = crypto.randomUUID().slice(0, 6)
const aliasName = `deals-${suffix}`
const address = `${aliasName}@veilmail.test`
let db: TestDatabase
let server: WebServer
let browser: Browser
let page: Page

beforeAll(async () => {
  if (!run) return
  ;({ db, server, browser } = await startBrowserSuite({ env: { MAIL_DOMAINS: 'veilmail.test' } }))
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  page.setDefaultTimeout(10_000)
})
afterEach(screenshotOnFailure(() => page, 'spam-handling-failure.png'))
afterAll(() => closeBrowserSuite({ db, server, browser }))

const toast = (title: string) => page.getByTestId('toast').getByText(title, { exact: true })
const row = () => page.locator(`[data-testid="alias-row"][data-alias="${address}"]`)

describe.skipIf(!run)('spam handling per alias', () => {
  it('shows the dropped-as-spam count and saves what becomes of spam from the alias details', async () => {
    await registerThroughForm(page, server.url, { sql: db.sql, secretKey: TEST_SECRET_KEY }, `spam.${suffix}@example.com`)
    await page.getByText('No aliases yet').waitFor()
    const [user] = await db.sql`select id from users where email = ${`spam.${suffix}@example.com`}`
    const [alias] = await db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, ${aliasName}, 'veilmail.test', 'me@mailbox.example') returning id`
    await db.sql`insert into alias_counters (alias_id, shard, forwarded, spam) values (${alias.id}, 0, 4, 2), (${alias.id}, 5, 0, 1)`
    await page.reload()
    await expect.poll(() => row().getByTestId('alias-counters').innerText()).toMatch(/3\s*dropped as spam/)

    await row().getByRole('button', { name: 'Details' }).click()
    const choice = page.getByRole('combobox', { name: `What becomes of spam sent to ${address}` })
    expect(await choice.inputValue()).toBe('tag')
    expect(await choice.locator('option').allInnerTexts()).toEqual([
      'Forward it, marked in its headers', 'Forward it, with [SPAM] before the subject', 'Drop it and count it',
    ])
    await choice.selectOption('drop')
    await toast('Spam Handling Saved').waitFor()
    await expect.poll(async () => (await db.sql`select spam_handling from aliases where id = ${alias.id}`)[0].spamHandling).toBe('drop')
    expect(await choice.inputValue()).toBe('drop')
    await page.getByTestId('spam-handling-panel').screenshot({ path: path.join(SCREENSHOTS, 'dashboard-spam-handling-1280.png') })
    await row().screenshot({ path: path.join(SCREENSHOTS, 'dashboard-alias-spam-1280.png') })

    // the choice is the server's: it stays after a reload
    await page.reload()
    await row().getByRole('button', { name: 'Details' }).click()
    expect(await page.getByRole('combobox', { name: `What becomes of spam sent to ${address}` }).inputValue()).toBe('drop')
  })

  it('names the dropped-as-spam counter where the pages list what is kept of an alias', async () => {
    for (const route of ['/privacy', '/transparency', '/about', '/']) {
      await page.goto(server.url + route)
      const mention = page.getByText(/dropped as spam/).first()
      await mention.waitFor()
      await mention.scrollIntoViewIfNeeded()
      await page.screenshot({ path: path.join(SCREENSHOTS, `spam-counter${route === '/' ? '-landing' : route.replace('/', '-')}-1280.png`) })
    }
  })
})
