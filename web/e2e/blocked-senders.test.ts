// Blocked senders and one-click unsubscribe (issue 30) in a real browser against the real web
// process: an alias's contacts with Block/Unblock, the confirmation page a forward's link opens
// (opening it changes nothing; the button pauses the alias), the dashboard's notice with Undo, and
// the three choices in Settings. Contacts are seeded the way a forward writes them (the delivery's
// own tests make them through the pipeline); the link is signed as a forward's is.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { signLinkToken } from '../../lib/link-token.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { onePageSuite } from '../../scripts/testing/browser-suite.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'

const run = browserAvailable()
const suffix = crypto.randomUUID().slice(0, 6)
const aliasName = `shop-${suffix}`
const address = `${aliasName}@veilmail.test`
let aliasId: string
let userId: string
const suite = onePageSuite('blocked-senders')

const row = (sender: string) => suite.page.getByTestId('contact-row').filter({ hasText: sender })

describe.skipIf(!run)('blocked senders and unsubscribe in the browser', () => {
  it('lists the alias\'s contacts with their mail, and blocks and unblocks one', async () => {
    await suite.register(`blocking.${suffix}@example.com`)
    const [user] = await suite.db.sql`select id from users where email = ${`blocking.${suffix}@example.com`}`
    userId = user.id
    const [alias] = await suite.db.sql`insert into aliases (user_id, alias, domain, forward_to) values (${userId}, ${aliasName}, 'veilmail.test', 'me@mailbox.example') returning id`
    aliasId = alias.id
    await suite.db.sql`insert into reverse_aliases (alias_id, local_part, domain, contact_address, contact_name, forwarded, last_mail_at, created_at) values
      (${aliasId}, ${`re+a${suffix}`}, 'veilmail.test', 'deals@pushy-shop.example', 'Pushy Shop', 14, now() - interval '1 day', now() - interval '30 days'),
      (${aliasId}, ${`re+b${suffix}`}, 'veilmail.test', 'friend@outside.example', 'A Friend', 3, now(), now() - interval '3 days')`
    await suite.page.reload()
    await suite.page.locator(`[data-testid="alias-row"][data-alias="${address}"]`).getByRole('button', { name: 'Details' }).click()
    const panel = suite.page.getByTestId('contacts-panel')
    await row('deals@pushy-shop.example').waitFor()
    expect(await suite.page.getByTestId('contact-row').first().innerText()).toContain('friend@outside.example') // most recent mail first
    expect(await row('deals@pushy-shop.example').innerText()).toMatch(/Pushy Shop[\s\S]*14/)

    await panel.getByRole('button', { name: 'Block deals@pushy-shop.example' }).click()
    await suite.toast('Sender Blocked').waitFor()
    await row('deals@pushy-shop.example').getByText(/^Blocked since/).waitFor()
    expect((await suite.db.sql`select blocked_at is not null as blocked from reverse_aliases where contact_address = 'deals@pushy-shop.example'`)[0].blocked).toBe(true)
    await panel.scrollIntoViewIfNeeded()
    await panel.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-contacts-1280.png') })

    await panel.getByRole('button', { name: 'Unblock deals@pushy-shop.example' }).click()
    await suite.toast('Sender Unblocked').waitFor()
    await expect.poll(async () => (await suite.db.sql`select blocked_at from reverse_aliases where contact_address = 'deals@pushy-shop.example'`)[0].blockedAt).toBeNull()
  })

  it("opens a forward's Unsubscribe link on a confirmation page that changes nothing until pressed; the dashboard tells and undoes it", async () => {
    const token = signLinkToken(TEST_SECRET_KEY, { purpose: 'unsubscribe', kind: 'alias', id: aliasId })
    // a browser (or a link scanner) opening the link from the mail: the page, and nothing done
    const scanner = await suite.browser.newPage()
    await scanner.goto(`${suite.server.url}/api/unsubscribe/${token}`)
    await scanner.waitForURL(`**/unsubscribe/${token}`)
    await scanner.getByRole('heading', { name: 'Pause this alias?' }).waitFor()
    await scanner.close()
    expect((await suite.db.sql`select forward_to from aliases where id = ${aliasId}`)[0].forwardTo).toBe('me@mailbox.example')

    const visitor = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    await visitor.goto(`${suite.server.url}/api/unsubscribe/${token}`)
    await visitor.getByRole('heading', { name: 'Pause this alias?' }).waitFor()
    expect(await visitor.getByText(`${address} will stop forwarding mail until you resume it.`).count()).toBe(1)
    await visitor.screenshot({ path: path.join(SCREENSHOTS, 'unsubscribe-confirm-1280.png') })
    await visitor.getByTestId('unsubscribe-confirm').click()
    await visitor.getByRole('heading', { name: 'Alias Paused' }).waitFor()
    expect((await suite.db.sql`select active, forward_to from aliases where id = ${aliasId}`)[0]).toEqual({ active: false, forwardTo: 'null' })
    // used: the same link again is refused, saying so
    await visitor.goto(`${suite.server.url}/api/unsubscribe/${token}`)
    await visitor.getByText('This link was used already. Your dashboard shows what it did and can undo it.').waitFor()
    await visitor.close()

    await suite.page.reload()
    const notice = suite.page.getByTestId('unsubscribe-notice')
    await notice.getByText(`${address} was paused by a link in a forward.`).waitFor()
    await notice.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-unsubscribe-notice-1280.png') })
    await notice.getByRole('button', { name: 'Undo' }).click()
    await suite.toast('Undone').waitFor()
    await notice.waitFor({ state: 'detached' })
    expect((await suite.db.sql`select active, forward_to from aliases where id = ${aliasId}`)[0]).toEqual({ active: true, forwardTo: 'me@mailbox.example' })
  })

  it('saves the three choices in Settings', async () => {
    await suite.page.goto(`${suite.server.url}/settings`)
    const card = suite.page.getByTestId('sender-block-settings-card')
    await card.getByLabel('Unsubscribe in your mail client').selectOption('block')
    await card.getByLabel('Mail from a blocked sender').selectOption('drop')
    await card.getByLabel('Block link in forwards').selectOption('off')
    await card.getByRole('button', { name: 'Save' }).click()
    await suite.toast('Settings saved').waitFor()
    expect((await suite.db.sql`select unsubscribe_action, blocked_reply, block_link from sender_block_settings where user_id = ${userId}`)[0])
      .toEqual({ unsubscribeAction: 'block', blockedReply: 'drop', blockLink: false })
    await card.screenshot({ path: path.join(SCREENSHOTS, 'settings-blocked-senders-1280.png') })
  })
})
