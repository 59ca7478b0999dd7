// The inbox's keyboard shortcuts in a real browser, pressed as a user presses them
// (page.keyboard): a private Dovecot seeded with mail, synced by the real sync worker into the real
// web process. What the keys change (star, archive, delete) is checked on the IMAP server through
// another client.
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from '../../scripts/testing/axe.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { connectMailbox, createAliasFromPage, startInboxBrowser, type InboxBrowser } from '../../scripts/testing/inbox-browser.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const MAILBOX = 'keys@example.test'
const CRLF = '\r\n'
// newest first in the list: Foxtrot (minute 6) … Alpha (minute 1)
const SUBJECTS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot']

let dovecot: Dovecot
let inbox: InboxBrowser | undefined
let server: WebServer
let page: Page

const message = (subject: string, minute: number) => [
  `From: Sender ${subject} <${subject.toLowerCase()}@senders.example>`, `To: ${MAILBOX}`, `Subject: ${subject}`,
  `Date: ${new Date(Date.UTC(2026, 10, 20, 9, minute)).toUTCString()}`, `Message-ID: <${subject.toLowerCase()}@example.test>`,
  'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', `This is ${subject}.`, '',
].join(CRLF)

const row = (subject: string) => page.getByTestId('email-row').filter({ has: page.getByTestId('row-subject').getByText(subject, { exact: true }) })
const toast = (title: string) => page.getByTestId('toast').filter({ has: page.getByText(title, { exact: true }) })
const rowSubjects = () => page.getByTestId('email-row').getByTestId('row-subject').allInnerTexts()
/** The subject of the keyboard's row, and whether the focus is on it and shows. */
const cursor = () => page.evaluate(() => {
  const current = document.querySelector('[data-testid="email-row"][data-current="true"]')
  const focused = document.activeElement
  return {
    subject: current?.querySelector('[data-testid="row-subject"]')?.textContent ?? null,
    focused: current !== null && focused !== null && current.contains(focused),
    ring: focused !== null && focused.matches(':focus-visible') && getComputedStyle(focused).outlineStyle !== 'none',
  }
})
async function press(...keys: string[]) {
  for (const key of keys) await page.keyboard.press(key)
}

/** The message's flags in `folder` as another IMAP client sees them; undefined when it is not there. */
async function onServer(subject: string, folder = 'INBOX'): Promise<string[] | undefined> {
  const client = await dovecot.client(MAILBOX)
  try {
    await client.mailboxOpen(folder)
    for await (const m of client.fetch('1:*', { envelope: true, flags: true })) {
      // \Recent is the session's, not the message's (RFC 3501 §2.3.2)
      if (m.envelope?.messageId === `<${subject.toLowerCase()}@example.test>`) return [...(m.flags ?? [])].filter((f) => f !== '\\Recent').sort()
    }
    return undefined
  } finally {
    await client.logout()
  }
}
const SERVER_WAIT = { timeout: 40_000, interval: 500 }

beforeAll(async () => {
  if (!run) return
  dovecot = await startDovecot()
  const password = dovecot.addUser(MAILBOX)
  dovecot.writeMessages(MAILBOX, SUBJECTS.map((s, i) => ({ raw: message(s, i + 1), flags: 'S' })))
  inbox = await startInboxBrowser(dovecot)
  ;({ server, page } = inbox)
  await registerThroughForm(page, server.url, inbox.env.mailbox, 'keys@example.com')
  expect(await createAliasFromPage(page, 'keys@veilmail.test')).toBe(201)
  await connectMailbox(page, dovecot, MAILBOX, password)
}, 180_000)
afterEach(screenshotOnFailure(() => page, 'inbox-keyboard-failure.png'))
afterAll(async () => {
  await inbox?.close()
  await dovecot?.stop()
})

describe.skipIf(!run)('inbox keyboard shortcuts', () => {
  it('moves through the list with j and k, the focus visible, and stars, archives and deletes with s, e and #', async () => {
    await page.goto(server.url + '/inbox')
    await row('Foxtrot').waitFor()
    expect(await rowSubjects()).toEqual([...SUBJECTS].reverse())
    await press('j')
    await expect.poll(cursor).toEqual({ subject: 'Foxtrot', focused: true, ring: true })
    await press('j', 'j')
    await expect.poll(cursor).toEqual({ subject: 'Delta', focused: true, ring: true })
    await press('k')
    await expect.poll(cursor).toEqual({ subject: 'Echo', focused: true, ring: true })
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-keyboard-cursor-1280.png') })

    // s: Echo starred, here at once and on the server
    await press('s')
    await expect.poll(() => row('Echo').getByRole('button', { name: 'Unstar' }).count()).toBe(1)
    await expect.poll(() => onServer('Echo'), SERVER_WAIT).toEqual(['\\Flagged', '\\Seen'])

    // e: Echo to Archive; the row after it becomes the keyboard's row
    await press('e')
    await toast('Archived').getByText('1 email archived').waitFor()
    await row('Echo').waitFor({ state: 'detached' })
    await expect.poll(cursor).toEqual({ subject: 'Delta', focused: true, ring: true })
    // #: Delta to Trash
    await press('#')
    await toast('Emails deleted').getByText('1 email deleted successfully').waitFor()
    await row('Delta').waitFor({ state: 'detached' })
    await expect.poll(cursor).toMatchObject({ subject: 'Charlie', focused: true })
    await expect.poll(() => onServer('Echo'), SERVER_WAIT).toBeUndefined()
    expect(await onServer('Echo', 'Archive')).toBeDefined()
    await expect.poll(() => onServer('Delta'), SERVER_WAIT).toBeUndefined()
    expect(await onServer('Delta', 'Trash')).toBeDefined()
  }, 120_000)

  it('opens with o and Enter, goes back with u, and replies, forwards, stars, archives and deletes a message with r, f, s, e and #', async () => {
    await page.goto(server.url + '/inbox')
    await row('Charlie').waitFor()
    await press('j', 'j') // Foxtrot, Charlie
    await expect.poll(cursor).toMatchObject({ subject: 'Charlie' })
    await press('o')
    const detail = page.getByTestId('email-detail')
    await detail.getByRole('heading', { name: 'Charlie', level: 1 }).waitFor()
    await detail.getByText('This is Charlie.').waitFor()
    // j and k: the next and previous conversation of the list it was opened from
    await press('j')
    await detail.getByRole('heading', { name: 'Bravo', level: 1 }).waitFor()
    await press('k')
    await detail.getByRole('heading', { name: 'Charlie', level: 1 }).waitFor()
    await detail.getByText('This is Charlie.').waitFor()

    // r and f open the compose dialog as the buttons do; Escape closes it
    await press('r')
    const reply = page.getByRole('dialog', { name: 'Reply to: Charlie' })
    expect(await reply.getByLabel('To', { exact: true }).inputValue()).toBe('charlie@senders.example')
    await press('Escape')
    await reply.waitFor({ state: 'detached' })
    await press('f')
    const forward = page.getByRole('dialog', { name: 'Forward: Charlie' })
    expect(await forward.getByLabel('Subject').inputValue()).toBe('Fwd: Charlie')
    await press('Escape')
    await forward.waitFor({ state: 'detached' })

    // s stars the message, on the server too
    await press('s')
    await expect.poll(() => onServer('Charlie'), SERVER_WAIT).toEqual(['\\Flagged', '\\Seen'])

    // u: back to the list, the keyboard's row where it was; Enter opens it again
    await press('u')
    await row('Foxtrot').waitFor()
    await expect.poll(cursor).toEqual({ subject: 'Charlie', focused: true, ring: true })
    await press('Enter')
    await detail.getByRole('heading', { name: 'Charlie', level: 1 }).waitFor()
    // e: archived from its page, and the list again
    await press('e')
    await toast('Archived').getByText('Email archived').waitFor()
    await page.waitForURL(/\/inbox$/)
    await row('Charlie').waitFor({ state: 'detached' })
    await expect.poll(() => onServer('Charlie'), SERVER_WAIT).toBeUndefined()
    expect(await onServer('Charlie', 'Archive')).toEqual(['\\Flagged', '\\Seen'])

    // #: Bravo deleted from its page
    await press('j', 'j') // Foxtrot, Bravo
    await expect.poll(cursor).toMatchObject({ subject: 'Bravo' })
    await press('o')
    await detail.getByRole('heading', { name: 'Bravo', level: 1 }).waitFor()
    await press('#')
    await toast('Email deleted').getByText('Email deleted successfully').waitFor()
    await page.waitForURL(/\/inbox$/)
    await expect.poll(() => onServer('Bravo'), SERVER_WAIT).toBeUndefined()
    expect(await onServer('Bravo', 'Trash')).toBeDefined()
  }, 120_000)

  it('composes with c, leaves typing alone, and lists exactly the bound keys with ?', async () => {
    await page.goto(server.url + '/inbox')
    await row('Foxtrot').waitFor()
    await press('c')
    const compose = page.getByRole('dialog', { name: 'Compose Email' })
    await compose.waitFor()
    // typed into a field, j is a letter: the list behind the dialog does not move
    await compose.getByLabel('To', { exact: true }).focus()
    await press('j', 'k', 's')
    expect(await compose.getByLabel('To', { exact: true }).inputValue()).toBe('jks')
    await press('Escape')
    await compose.waitFor({ state: 'detached' })
    expect((await cursor()).subject).toBeNull()
    // Ctrl and Alt belong to the browser
    await press('Control+j', 'Alt+j')
    expect((await cursor()).subject).toBeNull()

    await press('?')
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await help.waitFor()
    const listed = await help.getByTestId('shortcut').locator('kbd').allInnerTexts()
    // "/" only once the inbox has a search box for it to focus
    const searchBox = page.locator('input[type="search"], [role="searchbox"]')
    const hasSearch = (await searchBox.count()) > 0
    expect([...new Set(listed)].sort()).toEqual(['#', '?', 'Enter', 'a', 'c', 'e', 'f', 'j', 'k', 'o', 'r', 's', 'u', ...(hasSearch ? ['/'] : [])].sort())
    expect(await seriousViolations(page)).toEqual([])
    await page.setViewportSize({ width: 375, height: 812 })
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-shortcuts-375.png') })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-shortcuts-1280.png') })
    await press('Escape')
    await help.waitFor({ state: 'detached' })
    // a row's checkbox clicked takes no text: j moves on from it
    await row('Foxtrot').getByRole('checkbox').click()
    await press('j')
    await expect.poll(cursor).toMatchObject({ subject: 'Foxtrot', focused: true })
    await row('Foxtrot').getByRole('checkbox').uncheck()
    if (hasSearch) {
      // back from a message, its row is the keyboard's; typing a search keeps the focus in the box as results come
      await press('o')
      await page.getByTestId('email-detail').getByRole('heading', { name: 'Foxtrot', level: 1 }).waitFor()
      await press('u')
      await expect.poll(cursor).toMatchObject({ subject: 'Foxtrot', focused: true })
      await press('/')
      await expect.poll(() => searchBox.first().evaluate((el) => el === document.activeElement)).toBe(true)
      await page.keyboard.type('Foxtrot')
      await expect.poll(() => searchBox.first().evaluate((el) => el === document.activeElement && (el as HTMLInputElement).value)).toBe('Foxtrot')
    }
  })
})
