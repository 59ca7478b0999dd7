// Forward and Print of the inbox's detail view in a real browser: a private Dovecot seeded with
// mail, synced by the real sync worker into the real web process; Forward's compose dialog sends
// through the outgoing queue and the delivery worker to a relay stand-in. Print is the browser's:
// window.print is replaced before the page loads, to record the call, and the print stylesheet
// is checked with the print media emulated.
import { simpleParser } from 'mailparser'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { screenshotOnFailure } from '../../scripts/testing/browser-suite.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { connectMailbox, createAliasFromPage, openMessage, startInboxBrowser, type InboxBrowser } from '../../scripts/testing/inbox-browser.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const MAILBOX = 'traveller@example.test'
const ALIAS = 'traveller@veilmail.test'
const FRIEND = 'friend@elsewhere.example'
const CRLF = '\r\n'

let env: MailEnv
let dovecot: Dovecot
let inbox: InboxBrowser | undefined
let server: WebServer
let page: Page

function message(o: { from: string; subject: string; id: string; minute: number; body: string; headers?: string }) {
  return [
    `From: ${o.from}`, `To: ${MAILBOX}`, `Subject: ${o.subject}`, `Date: ${new Date(Date.UTC(2026, 10, 20, 9, o.minute)).toUTCString()}`,
    `Message-ID: <${o.id}@example.test>`, 'MIME-Version: 1.0', ...(o.headers ? [o.headers] : []),
    'Content-Type: text/plain; charset=utf-8', '', o.body, '',
  ].join(CRLF)
}

const PHOTO = Buffer.from('JPEG bytes of the bridge photo '.repeat(40))
const ITINERARY = Buffer.from('%PDF-1.4\nday one: the bridge\n%%EOF\n')

/** "Trip photos": a text part and two attachments. */
function photosMessage(): string {
  const b = 'photos-boundary'
  const part = (name: string, type: string, content: Buffer) =>
    `--${b}${CRLF}Content-Type: ${type}; name="${name}"${CRLF}Content-Disposition: attachment; filename="${name}"${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}` +
    content.toString('base64').replace(/.{76}/g, `$&${CRLF}`) + CRLF
  return [
    'From: Dora Explorer <dora@travel.example>', `To: ${MAILBOX}`, 'Subject: Trip photos', `Date: ${new Date(Date.UTC(2026, 10, 20, 9, 5)).toUTCString()}`,
    'Message-ID: <photos@example.test>', 'MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${b}"`, '',
    `--${b}${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}Hi,${CRLF}${CRLF}The photos from the trip are on the shared drive.${CRLF}Dora${CRLF}` +
    part('bridge.jpg', 'image/jpeg', PHOTO) + part('itinerary.pdf', 'application/pdf', ITINERARY) + `--${b}--`, '',
  ].join(CRLF)
}

/** The message's flags as another IMAP client sees them. */
async function flagsOnServer(messageId: string): Promise<string[] | undefined> {
  const client = await dovecot.client(MAILBOX)
  try {
    await client.mailboxOpen('INBOX')
    for await (const m of client.fetch('1:*', { envelope: true, flags: true })) {
      if (m.envelope?.messageId === `<${messageId}@example.test>`) return [...(m.flags ?? [])].sort()
    }
    return undefined
  } finally {
    await client.logout()
  }
}

const toast = (p: Page, title: string) => p.getByTestId('toast').filter({ has: p.getByText(title, { exact: true }) })
const printCalls = (p: Page) => p.evaluate(() => (window as unknown as { printed: string[] }).printed)


beforeAll(async () => {
  if (!run) return
  dovecot = await startDovecot()
  const password = dovecot.addUser(MAILBOX)
  dovecot.writeMessages(MAILBOX, [
    { raw: photosMessage(), flags: 'S' },
    { raw: message({ from: 'Boots <boots@travel.example>', subject: 'Map route', id: 'map-1', minute: 10, body: 'Which way over the bridge?' }), flags: 'S' },
    {
      raw: message({
        from: 'Dora Explorer <dora@travel.example>', subject: 'Re: Map route', id: 'map-2', minute: 12, body: 'Left at the big tree.',
        headers: `In-Reply-To: <map-1@example.test>${CRLF}References: <map-1@example.test>`,
      }),
      flags: 'S',
    },
  ])

  // UTC, so the quoted "Sent:" line is the Date header's own time
  inbox = await startInboxBrowser(dovecot, { timezoneId: 'UTC' })
  ;({ env, server, page } = inbox)

  // A user signs up through the pages, gets an alias and connects the Dovecot mailbox.
  await registerThroughForm(page, server.url, env.mailbox, 'traveller@example.com')
  expect(await createAliasFromPage(page, ALIAS)).toBe(201)
  await connectMailbox(page, dovecot, MAILBOX, password)
}, 180_000)
afterEach(screenshotOnFailure(() => page, 'inbox-forward-print-failure.png'))
afterAll(async () => {
  await inbox?.close()
  await dovecot?.stop()
})

describe.skipIf(!run)('forward and print in the inbox detail', () => {
  it('forwards a message with its attachments: empty To, "Fwd: " subject, the original quoted, one attachment removed, the relay gets it from the alias, and the original gets $Forwarded', async () => {
    await openMessage(page, server.url + '/inbox', 'Trip photos', /Dora Explorer/)
    await page.getByTestId('email-detail').getByRole('button', { name: 'Forward' }).first().click()
    // the dialog says what it is for
    const dialog = page.getByRole('dialog', { name: 'Forward: Trip photos' })
    const form = dialog.getByRole('form', { name: 'Compose Email' })
    expect(await form.getByLabel('To', { exact: true }).inputValue()).toBe('')
    expect(await form.getByLabel('Subject').inputValue()).toBe('Fwd: Trip photos')
    expect(await form.getByLabel('Message').inputValue()).toBe([
      '', '',
      '-------- Forwarded Message --------',
      'From: Dora Explorer <dora@travel.example>',
      `To: ${MAILBOX}`,
      'Sent: Nov 20, 2026 at 9:05 AM',
      'Subject: Trip photos',
      '',
      '> Hi,',
      '> ',
      '> The photos from the trip are on the shared drive.',
      '> Dora',
      '',
    ].join('\n'))
    expect(await form.getByLabel('From').inputValue()).not.toBe('') // the only alias is chosen
    // the original's attachments are listed, each removable
    const attachments = form.getByRole('list', { name: 'Attachments' })
    await expect.poll(() => attachments.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^bridge\.jpg/), expect.stringMatching(/^itinerary\.pdf/)])
    await page.screenshot({ path: `${SCREENSHOTS}/inbox-forward-attachments-1280.png` })
    await attachments.getByRole('button', { name: 'Remove itinerary.pdf' }).click()
    expect(await attachments.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^bridge\.jpg/)])

    await form.getByLabel('To', { exact: true }).fill(FRIEND)
    await form.getByLabel('Message').press('Control+Home')
    await form.getByLabel('Message').pressSequentially('Have a look at these.')
    await form.getByRole('button', { name: 'Send' }).click()
    await toast(page, 'Email sent').waitFor()
    await dialog.waitFor({ state: 'detached' })

    const relayed = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes(FRIEND)), 30_000)
    expect(relayed.from).toBe(ALIAS)
    const parsed = await simpleParser(relayed.raw)
    expect(parsed.subject).toBe('Fwd: Trip photos')
    expect(parsed.text).toMatch(/^Have a look at these\./)
    expect(parsed.text).toContain('-------- Forwarded Message --------\nFrom: Dora Explorer <dora@travel.example>\nTo: traveller@example.test\nSent: Nov 20, 2026 at 9:05 AM\nSubject: Trip photos')
    expect(parsed.text).toContain('> The photos from the trip are on the shared drive.\n> Dora')
    // the photo, byte for byte; not the removed itinerary
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([['bridge.jpg', 'image/jpeg']])
    expect(parsed.attachments[0].content.equals(PHOTO)).toBe(true)
    // a forward is not a reply: no threading fields
    expect(parsed.inReplyTo).toBeUndefined()
    // the job's status is polled every 10 s until it says sent
    await toast(page, 'Email sent successfully').waitFor({ timeout: 40_000 })
    // sent: the original is marked forwarded on the IMAP server
    await expect.poll(() => flagsOnServer('photos'), { timeout: 30_000, interval: 500 }).toEqual(['$Forwarded', '\\Seen'])
  }, 90_000)

  it('forwards the newest message of a conversation, from the bottom Forward button', async () => {
    await openMessage(page, server.url + '/inbox', 'Re: Map route', /Dora Explorer \(2\)/)
    await page.getByTestId('email-detail').getByText('2 messages').waitFor()
    await page.getByTestId('email-detail').getByRole('button', { name: 'Forward' }).last().click()
    const form = page.getByRole('dialog', { name: 'Forward: Re: Map route' }).getByRole('form', { name: 'Compose Email' })
    expect(await form.getByLabel('To', { exact: true }).inputValue()).toBe('')
    expect(await form.getByLabel('Subject').inputValue()).toBe('Fwd: Re: Map route')
    const body = await form.getByLabel('Message').inputValue()
    expect(body).toContain('-------- Forwarded Message --------\nFrom: Dora Explorer <dora@travel.example>')
    expect(body).toContain('Sent: Nov 20, 2026 at 9:12 AM')
    expect(body).toContain('> Left at the big tree.')
    expect(body).not.toContain('Which way over the bridge?')
    await page.keyboard.press('Escape')
    await page.getByRole('dialog', { name: 'Forward: Re: Map route' }).waitFor({ state: 'detached' })
  })

  it('prints the open message: window.print is called, and the print layout shows the message without the page around it', async () => {
    // recorded at the call: what the detail shows when the browser's print dialog would open
    await page.addInitScript(() => {
      const w = window as unknown as { printed: string[] }
      w.printed = []
      window.print = () => void w.printed.push(document.querySelector('[data-testid="email-detail"] h1')?.textContent ?? '')
    })
    await openMessage(page, server.url + '/inbox', 'Trip photos', /Dora Explorer/)
    expect(await printCalls(page)).toEqual([])
    await page.getByTestId('email-detail').getByRole('button', { name: 'Print' }).click()
    await expect.poll(() => printCalls(page)).toEqual(['Trip photos'])

    await page.emulateMedia({ media: 'print' })
    try {
      const detail = page.getByTestId('email-detail')
      expect(await detail.getByRole('heading', { name: 'Trip photos', level: 1 }).isVisible()).toBe(true)
      expect(await detail.getByText('Dora Explorer').isVisible()).toBe(true)
      expect(await detail.getByText(`to ${MAILBOX}`).isVisible()).toBe(true)
      expect(await detail.getByText('Nov 20, 2026 at 9:05 AM').isVisible()).toBe(true)
      expect(await detail.getByText('The photos from the trip are on the shared drive.').isVisible()).toBe(true)
      // no buttons, sidebar, navigation or footer on paper
      for (const name of ['Back', 'Reply', 'Forward', 'Print', 'Delete', 'Star']) {
        expect(await detail.getByRole('button', { name, exact: true }).evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length)).toBe(0)
      }
      expect(await page.getByRole('complementary', { name: 'Mailboxes' }).isVisible()).toBe(false)
      expect(await page.getByRole('link', { name: '_INBOX' }).isVisible()).toBe(false) // the nav bar
      expect(await page.getByTestId('site-footer').isVisible()).toBe(false)
    } finally {
      await page.emulateMedia({ media: null })
    }
  })
})
