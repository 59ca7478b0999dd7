// The inbox search in a real browser (issue 26): a private Dovecot seeded with mail, synced by the
// real sync worker into the real web process. "/" focuses the box, Enter searches, the query is in
// the address (Back and Forward return to it), the cross clears it. A word that is only in a body
// is found through the IMAP server (checked there with Dovecot's own UID SEARCH), the operators
// narrow the rows, another user's mail never appears, and a server that is down is named.
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import path from 'node:path'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { connectMailbox, createAliasFromPage, startInboxBrowser, type InboxBrowser } from '../../scripts/testing/inbox-browser.ts'

const run = browserAvailable() && dovecotAvailable()
const MAILBOX = 'finder@example.test'
const OTHER = 'someone-else@example.test'
const CRLF = '\r\n'

function message(o: { to: string; from: string; subject: string; minute: number; body: string; attachment?: boolean }): string {
  const head = [`From: ${o.from}`, `To: ${o.to}`, `Subject: ${o.subject}`, `Date: ${new Date(Date.UTC(2026, 10, 20, 9, o.minute)).toUTCString()}`,
    `Message-ID: <${o.subject.toLowerCase().replaceAll(' ', '-')}.${o.to}>`, 'MIME-Version: 1.0']
  if (!o.attachment) return [...head, 'Content-Type: text/plain; charset=utf-8', '', o.body, ''].join(CRLF)
  return [...head, 'Content-Type: multipart/mixed; boundary="b1"', '', '--b1', 'Content-Type: text/plain; charset=utf-8', '', o.body,
    '--b1', 'Content-Type: application/pdf; name="menu.pdf"', 'Content-Disposition: attachment; filename="menu.pdf"', 'Content-Transfer-Encoding: base64', '',
    Buffer.from('%PDF-1.4 menu').toString('base64'), '--b1--', ''].join(CRLF)
}

let dovecot: Dovecot
let inbox: InboxBrowser | undefined
let page: Page
let other: Page

const rowSubjects = async (p = page) => (await p.getByTestId('email-row').getByTestId('row-subject').allInnerTexts()).sort()
const searchBox = (p = page) => p.getByRole('searchbox', { name: 'Search mail' })
async function search(q: string, p = page) {
  await searchBox(p).fill(q)
  await searchBox(p).press('Enter')
  await p.waitForURL((url) => url.searchParams.get('q') === q)
}

beforeAll(async () => {
  if (!run) return
  dovecot = await startDovecot()
  const password = dovecot.addUser(MAILBOX)
  dovecot.writeMessages(MAILBOX, [
    { raw: message({ to: MAILBOX, from: 'Alice Liddell <alice@wonder.example>', subject: 'Quarterly figures', minute: 1, body: 'The zebracorn numbers are in.' }), flags: 'S' },
    { raw: message({ to: MAILBOX, from: 'Bob Stone <bob@quarry.example>', subject: 'Lunch plans', minute: 2, body: 'Tuesday at noon?', attachment: true }) },
    { raw: message({ to: MAILBOX, from: 'Carol Danvers <carol@sky.example>', subject: 'Garden party', minute: 3, body: 'Bring a hat.' }), flags: 'SF' },
    { raw: message({ to: MAILBOX, from: 'Shop <deals@shop.example>', subject: 'Weekly deals', minute: 4, body: 'Half price.' }), flags: 'S' },
  ])
  const otherPassword = dovecot.addUser(OTHER)
  dovecot.writeMessages(OTHER, [{ raw: message({ to: OTHER, from: 'Alice Liddell <alice@wonder.example>', subject: 'Secret plans', minute: 5, body: 'A zebracorn for your eyes only.' }) }])
  inbox = await startInboxBrowser(dovecot)
  page = inbox.page
  await registerThroughForm(page, inbox.server.url, inbox.env.mailbox, 'finder@example.com')
  expect(await createAliasFromPage(page, 'finder@veilmail.test')).toBe(201)
  await connectMailbox(page, dovecot, MAILBOX, password)
  // another user, in a browser of their own, whose mailbox holds the same body word
  const otherContext = await inbox.browser.newContext({ viewport: { width: 1280, height: 900 } })
  other = await otherContext.newPage()
  other.setDefaultTimeout(15_000)
  await registerThroughForm(other, inbox.server.url, inbox.env.mailbox, 'someone-else@example.com')
  expect(await createAliasFromPage(other, 'someone-else@veilmail.test')).toBe(201)
  await connectMailbox(other, dovecot, OTHER, otherPassword)
}, 180_000)
afterEach(screenshotOnFailure(() => page, 'inbox-search-failure.png'))
afterAll(async () => {
  await inbox?.close()
  await dovecot?.stop()
})

describe.skipIf(!run)('searching the inbox in the browser', () => {
  it('finds a word that is only in a body through the IMAP server, as Dovecot itself does, from "/" and Enter', async () => {
    await page.goto(`${inbox!.server.url}/inbox`)
    await expect.poll(() => rowSubjects()).toEqual(['Garden party', 'Lunch plans', 'Quarterly figures', 'Weekly deals'])
    // "/" focuses the box (the inbox's shortcut), then the words are typed and Enter searches
    await page.keyboard.press('/')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search mail')
    await page.keyboard.type('zebracorn')
    await page.keyboard.press('Enter')
    await page.waitForURL((url) => url.searchParams.get('q') === 'zebracorn')
    await expect.poll(() => rowSubjects()).toEqual(['Quarterly figures'])
    // the word is nowhere in what is stored readable: the server found it, and finds the same one itself
    const client = await dovecot.client(MAILBOX)
    try {
      await client.mailboxOpen('INBOX', { readOnly: true })
      const uids = (await client.search({ body: 'zebracorn' }, { uid: true })) as number[]
      const found = await client.fetchAll(uids, { envelope: true }, { uid: true })
      expect(found.map((m) => m.envelope?.subject)).toEqual(['Quarterly figures'])
    } finally {
      await client.logout()
    }
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-search-results.png') })
    // on a phone the box spans the list, its cross inside it
    await page.setViewportSize({ width: 375, height: 800 })
    await expect.poll(() => searchBox().boundingBox().then((box) => Math.round(box?.width ?? 0))).toBeGreaterThan(300)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-search-mobile.png') })
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('narrows by the operators, keeps each search in the address for Back and Forward, and clears', async () => {
    await search('from:bob has:attachment')
    await expect.poll(() => rowSubjects()).toEqual(['Lunch plans'])
    await search('is:starred')
    await expect.poll(() => rowSubjects()).toEqual(['Garden party'])
    await search('is:unread')
    await expect.poll(() => rowSubjects()).toEqual(['Lunch plans'])
    await search('subject:"weekly deals"')
    await expect.poll(() => rowSubjects()).toEqual(['Weekly deals'])
    await search('tuesday from:carol')
    await expect.poll(() => page.getByTestId('list-empty').innerText()).toBe('No emails match your search.')

    await page.goBack()
    await expect.poll(() => rowSubjects()).toEqual(['Weekly deals'])
    expect(await searchBox().inputValue()).toBe('subject:"weekly deals"')
    await page.goBack()
    await expect.poll(() => rowSubjects()).toEqual(['Lunch plans'])
    expect(await searchBox().inputValue()).toBe('is:unread')
    await page.goForward()
    await expect.poll(() => rowSubjects()).toEqual(['Weekly deals'])
    // a reload lands on the same results
    await page.reload()
    await expect.poll(() => rowSubjects()).toEqual(['Weekly deals'])

    // an opened result goes back to the results
    await page.getByTestId('email-row').first().click()
    await page.waitForURL(/\/inbox\/[0-9a-f-]{36}/)
    await page.getByRole('button', { name: 'Back', exact: true }).click()
    await expect.poll(() => rowSubjects()).toEqual(['Weekly deals'])
    expect(new URL(page.url()).searchParams.get('q')).toBe('subject:"weekly deals"')

    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect.poll(() => rowSubjects()).toEqual(['Garden party', 'Lunch plans', 'Quarterly figures', 'Weekly deals'])
    expect(new URL(page.url()).searchParams.has('q')).toBe(false)
    expect(await searchBox().inputValue()).toBe('')
  })

  it('says what it cannot mean', async () => {
    await search('is:important')
    await expect.poll(() => page.getByTestId('list-empty').innerText()).toContain('is: takes unread, read or starred')
  })

  it("never shows another user's mail, though their server holds the same word", async () => {
    await search('zebracorn')
    await expect.poll(() => rowSubjects()).toEqual(['Quarterly figures'])
    await search('alice')
    await expect.poll(() => rowSubjects()).toEqual(['Quarterly figures'])
    await other.goto(`${inbox!.server.url}/inbox`)
    await search('zebracorn', other)
    await expect.poll(() => rowSubjects(other)).toEqual(['Secret plans'])
  })

  it('names an account whose server is down, and still finds what is stored', async () => {
    await dovecot.pause()
    try {
      await search('lunch')
      await expect.poll(() => rowSubjects()).toEqual(['Lunch plans'])
      await expect.poll(() => page.getByTestId('unsearched').innerText())
        .toBe(`Message bodies in ${MAILBOX} were not searched: its mail server could not be reached. Subjects, senders and recipients were.`)
      await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-search-unsearched.png') })
    } finally {
      await dovecot.resume()
    }
  })
})
