// Small things seen on a phone (issue 26), each measured in a real browser at 375 px: a private
// Dovecot seeded with mail, synced by the real sync worker into the real web process. The layout
// is asserted with element boxes (nothing covered, nothing cut), and an HTML message must open
// without the page's Content-Security-Policy refusing anything.
import path from 'node:path'
import { armor, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { connectMailbox, createAliasFromPage, startInboxBrowser, type InboxBrowser } from '../../scripts/testing/inbox-browser.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const MAILBOX = 'phone@example.test'
const CRLF = '\r\n'
const PHONE = { width: 375, height: 812 }

let dovecot: Dovecot
let inbox: InboxBrowser | undefined
let server: WebServer
let page: Page

function message(o: { subject: string; minute: number; body: string; contentType?: string }) {
  return [
    `From: Sender <sender@senders.example>`, `To: ${MAILBOX}`, `Subject: ${o.subject}`, `Date: ${new Date(Date.UTC(2026, 10, 20, 9, o.minute)).toUTCString()}`,
    `Message-ID: <${o.subject.replace(/\W+/g, '-').toLowerCase()}@example.test>`, 'MIME-Version: 1.0',
    o.contentType ?? 'Content-Type: text/plain; charset=utf-8', '', o.body, '',
  ].join(CRLF)
}

const row = (subject: string) => page.getByTestId('email-row').filter({ has: page.getByTestId('row-subject').getByText(subject, { exact: true }) })
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
type Box = { x: number; y: number; width: number; height: number }

beforeAll(async () => {
  if (!run) return
  const identity = await generateX25519Identity()
  const encrypter = new Encrypter()
  encrypter.addRecipient(await identityToRecipient(identity))
  const armored = armor.encode(await encrypter.encrypt('Meet at the north gate.'))
  dovecot = await startDovecot()
  const password = dovecot.addUser(MAILBOX)
  dovecot.writeMessages(MAILBOX, [
    // read plain mail enough for a list longer than the screen
    ...Array.from({ length: 24 }, (_, i) => ({ raw: message({ subject: `Plain ${i + 1}`, minute: i + 1, body: `Plain message ${i + 1}.` }), flags: 'S' })),
    // HTML mail as it comes: a plain newsletter, and an offer whose markup carries event handlers (dropped, and never parsed here)
    { raw: message({ subject: 'Newsletter', minute: 40, contentType: 'Content-Type: text/html; charset=utf-8', body: '<html><body><h1>News</h1><p>Newsletter body with <a href="https://news.example/a">a link</a>.</p></body></html>' }) },
    {
      raw: message({
        subject: 'Offer', minute: 42, contentType: 'Content-Type: text/html; charset=utf-8',
        body: '<html><head><style>p{color:#333}</style></head><body onload="track()"><table><tr><td><p onclick="open()">Offer body</p>' +
          '<img src="http://127.0.0.1:9/pixel.png" width="1" height="1" onload="seen()"><img src="x" onerror="oops()"><div onmouseover="w()">hover</div></td></tr></table></body></html>',
      }),
    },
    { raw: message({ subject: 'Sealed note', minute: 41, body: `Open this with your key:${CRLF}${CRLF}${armored}` }) },
  ])
  inbox = await startInboxBrowser(dovecot, { viewport: PHONE })
  ;({ server, page } = inbox)
  await registerThroughForm(page, server.url, inbox.env.mailbox, 'phone@example.com')
  expect(await createAliasFromPage(page, 'phone@veilmail.test')).toBe(201) // the reply's sender
  await connectMailbox(page, dovecot, MAILBOX, password)
}, 180_000)
afterEach(screenshotOnFailure(() => page, 'inbox-narrow-failure.png'))
afterAll(async () => {
  await inbox?.close()
  await dovecot?.stop()
})

describe.skipIf(!run)('the inbox at 375 px', () => {
  it('shows the folder names in Settings whole', async () => {
    await page.goto(server.url + '/inbox/settings')
    const folders = page.getByTestId('account-folder')
    await folders.first().waitFor()
    await expect.poll(() => folders.first().innerText()).toMatch(/27 messages/)
    const names = await page.locator('[data-testid="account-folder"] > :first-child').evaluateAll((spans) => spans.map((s) => ({ text: s.textContent, cut: s.scrollWidth > s.clientWidth })))
    expect(names.length).toBeGreaterThan(1)
    expect(names.filter((n) => n.cut)).toEqual([])
    // the way back, fixed before (issue 26): a link to the inbox above the settings
    expect(await page.getByRole('link', { name: 'Back to inbox' }).getAttribute('href')).toBe('/inbox')
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-settings-folders-375.png'), fullPage: true })
  })

  it('keeps the "Open mailboxes" button off the row checkboxes, at the bottom of the screen on a long list and a short one', async () => {
    await page.goto(server.url + '/inbox')
    await row('Sealed note').waitFor()
    const button = page.getByRole('button', { name: 'Open mailboxes' })
    const checkboxes = page.getByTestId('email-row').getByRole('checkbox')
    const covered = async () => {
      const b = (await button.boundingBox())!
      const boxes = await checkboxes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map(({ x, y, width, height }) => ({ x, y, width, height })))
      return boxes.filter((c) => overlaps(b, c)).length
    }
    const atScreenBottom = async () => {
      const b = (await button.boundingBox())!
      return b.y + b.height > PHONE.height - 40 && b.y + b.height <= PHONE.height
    }
    // the long list: at the top, scrolled through it, and at its end
    expect(await checkboxes.count()).toBe(27)
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight)
    for (let y = 0; y < pageHeight; y += 200) {
      await page.evaluate((top) => window.scrollTo(0, top), y)
      expect(await covered(), `scrolled to ${y}`).toBe(0)
    }
    await page.evaluate(() => window.scrollTo(0, 0))
    expect(await atScreenBottom()).toBe(true)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-drawer-button-long-375.png') })

    // a short list (the three unread): the button stays at the bottom of the screen, not under the last row
    await page.goto(server.url + '/inbox?category=unread')
    await page.getByTestId('pager-text').getByText('3 unread conversations').waitFor()
    expect(await covered()).toBe(0)
    expect(await atScreenBottom()).toBe(true)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-drawer-button-short-375.png') })
    // and it opens the drawer
    await button.click()
    await page.getByRole('dialog', { name: '_INBOX' }).getByRole('button', { name: 'Compose' }).waitFor()
    await page.keyboard.press('Escape')
  })

  it("shows an age block's armor whole, wrapped inside the widget", async () => {
    await page.goto(server.url + '/inbox')
    await row('Sealed note').getByRole('button', { name: /Sealed note/ }).click()
    const block = page.getByTestId('encrypted-block')
    const armorText = block.locator('pre').first()
    await armorText.getByText('-----BEGIN AGE ENCRYPTED FILE-----').waitFor()
    const fit = await armorText.evaluate((pre) => ({ scrolls: pre.scrollWidth > pre.clientWidth, right: pre.getBoundingClientRect().right }))
    const blockBox = (await block.boundingBox())!
    expect(fit.scrolls).toBe(false)
    expect(fit.right).toBeLessThanOrEqual(blockBox.x + blockBox.width)
    expect(blockBox.x + blockBox.width).toBeLessThanOrEqual(PHONE.width)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-armor-375.png'), fullPage: true })
  })

  it('opens HTML messages, shows their images and quotes them in a reply with no Content-Security-Policy violation', async () => {
    const violations: string[] = []
    const onConsole = (m: { text(): string }) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    }
    page.on('console', onConsole)
    try {
      for (const subject of ['Newsletter', 'Offer']) {
        await page.goto(server.url + '/inbox')
        await row(subject).getByRole('button', { name: new RegExp(subject) }).click()
        const frame = page.frameLocator('iframe[title="Message body"]')
        await frame.getByText(`${subject} body`).waitFor()
        await expect.poll(() => page.evaluate(() => document.querySelector<HTMLIFrameElement>('iframe[title="Message body"]')?.contentDocument?.readyState)).toBe('complete')
        if (subject === 'Offer') {
          // sanitized again with the images: the same handlers parsed a second time
          await page.getByRole('button', { name: 'Show images' }).click()
          await page.getByTestId('remote-blocked').waitFor({ state: 'detached' })
        }
        // the reply's quote reads the HTML's text
        await page.getByTestId('email-detail').getByRole('button', { name: 'Reply' }).first().click()
        const reply = page.getByRole('dialog', { name: `Reply to: ${subject}` })
        await expect.poll(() => reply.getByLabel('Message').inputValue()).toContain(`${subject} body`)
        await page.keyboard.press('Escape')
        await reply.waitFor({ state: 'detached' })
      }
      // a violation is logged as the parser meets the attribute, before the frame has loaded
      expect(violations).toEqual([])
      await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-html-375.png'), fullPage: true })
    } finally {
      page.off('console', onConsole)
    }
  })
})
