// The Decrypt page opens an encrypted forward (built by the real workers/delivery/encrypted-payload.ts) as a
// readable message in a real browser: headers, sanitized HTML with remote images blocked (a local
// server counts any fetch), inline images shown, attachments downloaded byte for byte.
import path from 'node:path'
import { generateX25519Identity, identityToRecipient } from 'age-encryption'
import MailComposer from 'nodemailer/lib/mail-composer/index.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startImageTracker, PIXEL, type ImageTracker } from '../../scripts/testing/image-tracker.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, screenshotOnFailure, startBrowserSuite } from '../../scripts/testing/browser-suite.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'
import { encryptPayload } from '../../workers/delivery/encrypted-payload.ts'

const run = browserAvailable()
let db: TestDatabase
let server: WebServer
let tracker: ImageTracker
let browser: Browser
let context: BrowserContext
let page: Page
let identity: string
let armored: string
const PDF = Buffer.from('%PDF-1.4\n' + 'quarterly numbers '.repeat(200) + '\n%%EOF\n')

beforeAll(async () => {
  if (!run) return
  tracker = await startImageTracker()
  const original = await new MailComposer({
    from: 'Shop Team <news@shop.example>',
    to: 'me.alias@veilmail.test',
    cc: 'friend@example.org',
    subject: 'Your order 4711 — shipped',
    date: new Date('2026-11-20T10:30:00Z'),
    text: 'Your order is on its way.\nTrack it on our site.',
    html: `<p>Your order is <b>on its way</b>.</p><img alt="tracking" src="${tracker.url}/open.png"><div style="background:url(${tracker.url}/bg.png)">styled</div><img alt="logo" src="cid:logo@shop"><script>document.title='owned'</script><a href="https://shop.example/track">Track</a>`,
    attachments: [
      { filename: 'invoice.pdf', content: PDF, contentType: 'application/pdf' },
      { filename: 'logo.png', content: PIXEL, contentType: 'image/png', cid: 'logo@shop' },
    ],
  }).compile().build()
  identity = await generateX25519Identity()
  armored = await encryptPayload(original, original, await identityToRecipient(identity))

  ;({ db, server, browser } = await startBrowserSuite())
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  page = await context.newPage()
  page.setDefaultTimeout(15_000)
  await registerVerified(context.request, server.url, db.sql, `reader.${crypto.randomUUID().slice(0, 8)}@example.com`)
}, 60_000)
afterEach(screenshotOnFailure(() => page, 'decrypt-mail-failure.png'))
afterAll(async () => {
  await closeBrowserSuite({ db, server, browser })
  tracker?.close()
})

describe.skipIf(!run)('a decrypted forward on the Decrypt page', () => {
  it('shows headers, the sanitized HTML without remote images, and the attachments as downloads', async () => {
    const pageRequests: string[] = []
    page.on('request', (r) => pageRequests.push(r.url()))
    await page.goto(server.url + '/decrypt')
    await page.getByRole('tab', { name: 'Manual Decrypt' }).click()
    const form = page.getByRole('form', { name: 'Manual decrypt' })
    await form.getByLabel('Private Key').fill(identity)
    await form.getByLabel('Encrypted Message').fill(armored)
    await form.getByRole('button', { name: 'Decrypt Message' }).click()

    const mail = page.getByTestId('decrypted-mail')
    await mail.waitFor()
    expect(await mail.getByTestId('decrypted-subject').innerText()).toBe('Your order 4711 — shipped')
    expect(await mail.getByTestId('decrypted-from').innerText()).toBe('Shop Team <news@shop.example>')
    expect(await mail.getByTestId('decrypted-to').innerText()).toBe('me.alias@veilmail.test')
    expect(await mail.getByTestId('decrypted-cc').innerText()).toBe('friend@example.org')
    expect(await page.getByLabel('Decrypted text').count()).toBe(0) // no raw MIME on screen

    const body = page.frameLocator('iframe[title="Message body"]')
    await body.getByText('on its way').waitFor()
    expect(await body.locator('script').count()).toBe(0)
    expect(await body.locator('img[alt="tracking"]').getAttribute('src')).toBeNull()
    // the rule stays, its remote image taken out
    expect(await body.getByText('styled').getAttribute('style')).toBe('background:none')
    expect(await body.locator('img[alt="logo"]').getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    await mail.getByTestId('remote-blocked').getByText('Remote images blocked (2)', { exact: false }).waitFor()
    expect(await page.title()).not.toBe('owned')

    const links = mail.getByRole('region', { name: 'Attachments' }).getByRole('link')
    expect(await links.allInnerTexts()).toEqual([expect.stringMatching(/^invoice\.pdf/), expect.stringMatching(/^original-message\.eml/)])
    const [download] = await Promise.all([page.waitForEvent('download'), links.first().click()])
    expect(download.suggestedFilename()).toBe('invoice.pdf')
    const chunks: Buffer[] = []
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).equals(PDF)).toBe(true)

    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: path.join(SCREENSHOTS, 'decrypt-readable-mail-1280.png'), fullPage: true })
    // The frame has rendered; nothing ever reached the tracking server, from the page or the frame.
    expect(tracker.hits).toEqual([])
    expect(pageRequests.filter((url) => url.startsWith(tracker.url))).toEqual([])
  })

  it('shows the plain text on request and the MIME source one click away', async () => {
    const mail = page.getByTestId('decrypted-mail')
    await mail.getByRole('button', { name: 'Show plain text' }).click()
    expect(await mail.getByTestId('decrypted-body').innerText()).toBe('Your order is on its way.\nTrack it on our site.')
    await page.getByRole('button', { name: 'Show source' }).click()
    expect(await page.getByLabel('Decrypted text').inputValue()).toMatch(/^From: Shop Team <news@shop\.example>/m)
    await page.getByRole('button', { name: 'Show message' }).click()
    await mail.waitFor()
    expect(tracker.hits).toEqual([])
  })
})
