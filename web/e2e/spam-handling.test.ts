// The per-alias spam choice (issue 30) and the "dropped as spam" counter on the dashboard, in a
// real browser against the real web process. The counter is seeded as the MX writes it (the MX's
// own test, workers/mx/spam-filter.test.ts, counts through a real rspamd).
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { onePageSuite } from '../../scripts/testing/browser-suite.ts'

const run = browserAvailable()
const suffix = crypto.randomUUID().slice(0, 6)
const aliasName = `deals-${suffix}`
const address = `${aliasName}@veilmail.test`
const suite = onePageSuite('spam-handling')

const row = () => suite.page.locator(`[data-testid="alias-row"][data-alias="${address}"]`)

describe.skipIf(!run)('spam handling per alias', () => {
  it('shows the dropped-as-spam count and saves what becomes of spam from the alias details', async () => {
    await suite.register(`spam.${suffix}@example.com`)
    await suite.page.getByText('No aliases yet').waitFor()
    const [user] = await suite.db.sql`select id from users where email = ${`spam.${suffix}@example.com`}`
    const [alias] = await suite.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${user.id}, ${aliasName}, 'veilmail.test', 'me@mailbox.example') returning id`
    await suite.db.sql`insert into alias_counters (alias_id, shard, forwarded, spam) values (${alias.id}, 0, 4, 2), (${alias.id}, 5, 0, 1)`
    await suite.page.reload()
    await expect.poll(() => row().getByTestId('alias-counters').innerText()).toMatch(/3\s*dropped as spam/)

    await row().getByRole('button', { name: 'Details' }).click()
    const choice = suite.page.getByRole('combobox', { name: `What becomes of spam sent to ${address}` })
    expect(await choice.inputValue()).toBe('tag')
    expect(await choice.locator('option').allInnerTexts()).toEqual([
      'Forward it, marked in its headers', 'Forward it, with [SPAM] before the subject', 'Drop it and count it',
    ])
    await choice.selectOption('drop')
    await suite.toast('Spam Handling Saved').waitFor()
    await expect.poll(async () => (await suite.db.sql`select spam_handling from aliases where id = ${alias.id}`)[0].spamHandling).toBe('drop')
    expect(await choice.inputValue()).toBe('drop')
    await suite.page.getByTestId('spam-handling-panel').screenshot({ path: path.join(SCREENSHOTS, 'dashboard-spam-handling-1280.png') })
    await row().screenshot({ path: path.join(SCREENSHOTS, 'dashboard-alias-spam-1280.png') })

    // the choice is the server's: it stays after a reload
    await suite.page.reload()
    await row().getByRole('button', { name: 'Details' }).click()
    expect(await suite.page.getByRole('combobox', { name: `What becomes of spam sent to ${address}` }).inputValue()).toBe('drop')
  })

  it('names the dropped-as-spam counter where the pages list what is kept of an alias', async () => {
    for (const route of ['/privacy', '/transparency', '/about', '/']) {
      await suite.page.goto(suite.server.url + route)
      const mention = suite.page.getByText(/dropped as spam/).first()
      await mention.waitFor()
      await mention.scrollIntoViewIfNeeded()
      await suite.page.screenshot({ path: path.join(SCREENSHOTS, `spam-counter${route === '/' ? '-landing' : route.replace('/', '-')}-1280.png`) })
    }
  })
})
