// The inbox in a real browser: a private Dovecot seeded with mail, synced by the real sync worker
// into the real web process; the delivery worker and a relay stand-in behind the compose dialog.
// Changes made in the browser are checked on the IMAP server through another client (imapflow),
// and a hostile HTML message must run nothing and fetch nothing until "Show images".
import path from 'node:path'
import { armor, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption'
import { simpleParser } from 'mailparser'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startImageTracker, type ImageTracker } from '../../scripts/testing/image-tracker.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerThroughForm } from '../../scripts/testing/browser-account.ts'
import { dovecotAvailable, startDovecot, type Dovecot } from '../../scripts/testing/dovecot.ts'
import { connectMailbox, createAliasFromPage, startInboxBrowser, waitForSyncJob, type InboxBrowser } from '../../scripts/testing/inbox-browser.ts'
import type { MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { sampleMail } from '../../scripts/testing/sample-mail.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable() && dovecotAvailable()
const DOCS = path.join(import.meta.dirname, '..', '..', 'docs', 'screenshots')
const MAILBOX = 'reader@example.test'
// fixed names (the file has its own database), so the README's screenshot changes only with the UI
const ALIAS = 'reader@veilmail.test'
const CRLF = '\r\n'
const PDF = Buffer.from('%PDF-1.4\n' + 'quarterly figures '.repeat(100) + '\n%%EOF\n')

let env: MailEnv
let dovecot: Dovecot
let inbox: InboxBrowser | undefined
let server: WebServer
let browser: Browser
let page: Page
let tracker: ImageTracker
let identity: string

function message(o: { from: string; subject: string; id: string; minute: number; body: string; headers?: string; contentType?: string }) {
  return [
    `From: ${o.from}`, `To: ${MAILBOX}`, `Subject: ${o.subject}`, `Date: ${new Date(Date.UTC(2026, 10, 20, 9, o.minute)).toUTCString()}`,
    `Message-ID: <${o.id}@example.test>`, 'MIME-Version: 1.0', ...(o.headers ? [o.headers] : []),
    o.contentType ?? 'Content-Type: text/plain; charset=utf-8', '', o.body, '',
  ].join(CRLF)
}

function xssMessage(): string {
  const t = tracker.url
  const html = `<html><head><meta http-equiv="refresh" content="0;url=${t}/refresh"><style>body{background-image:url(${t}/style-tag.png)}</style></head><body>
<p>Deals of the <b>week</b></p>
<script>fetch('${t}/script'); parent.document.title = 'owned'</script>
<img alt="broken" src="x" onerror="fetch('${t}/onerror')">
<a id="js-link" href="javascript:fetch('${t}/js-link')">Click me</a>
<svg onload="fetch('${t}/svg')"><image href="${t}/svg-image.png" /></svg>
<div style="background:url(${t}/css-bg.png)">styled block</div>
<img alt="remote" src="${t}/pixel.png" referrerpolicy="unsafe-url">
<form action="${t}/form"><input name="q"><button>Go</button></form>
<iframe src="${t}/frame"></iframe>
<a id="deal" href="https://shop.example/deal">See the deal</a>
</body></html>`
  const b = 'xss-boundary'
  return message({
    from: 'Shop Deals <deals@shop.example>', subject: 'Weekly deals', id: 'deals', minute: 40,
    contentType: `Content-Type: multipart/alternative; boundary="${b}"`,
    body: `--${b}${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}Deals of the week${CRLF}--${b}${CRLF}Content-Type: text/html; charset=utf-8${CRLF}${CRLF}${html}${CRLF}--${b}--`,
  })
}

/** Remote images named only in escaped CSS, which a pattern for `url(` does not see but the browser reads. */
function escapedCssMessage(): string {
  const t = tracker.url
  const html = String.raw`<html><head><style>@\69mport "${t}/escaped-import.css"; .hero{width:40px;height:40px;background-image:u\72l(${t}/escaped-style.png)}</style></head><body>
<p>Our new styles</p>
<div class="hero"></div>
<div style="width:40px;height:40px;background-image:image-set('${t}/escaped-attr.png' 1x)"></div>
</body></html>`
  return message({ from: 'Style News <news@style.example>', subject: 'Escaped styles', id: 'escaped-css', minute: 45, contentType: 'Content-Type: text/html; charset=utf-8', body: html })
}

function reportMessage(): string {
  const b = 'report-boundary'
  const pdf = PDF.toString('base64').replace(/.{76}/g, `$&${CRLF}`)
  return message({
    from: 'Bob Builder <bob@work.example>', subject: 'Quarterly report', id: 'report', minute: 30,
    contentType: `Content-Type: multipart/mixed; boundary="${b}"`,
    body: `--${b}${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}The figures are attached. Details on https://work.example/q4 today.${CRLF}` +
      `--${b}${CRLF}Content-Type: application/pdf; name="report.pdf"${CRLF}Content-Disposition: attachment; filename="report.pdf"${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${pdf}${CRLF}--${b}--`,
  })
}

async function seed() {
  const recipient = await identityToRecipient(identity)
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  const armored = armor.encode(await encrypter.encrypt('The vault code is 4711.'))
  const thread = [
    { raw: message({ from: 'Alice Liddell <alice@friends.example>', subject: 'Lunch plans', id: 'lunch-1', minute: 1, body: 'Shall we have lunch on Friday?' }), flags: 'S' },
    {
      raw: message({ from: `Reader <${MAILBOX}>`, subject: 'Re: Lunch plans', id: 'lunch-2', minute: 2, body: 'Friday works. Where?', headers: `In-Reply-To: <lunch-1@example.test>${CRLF}References: <lunch-1@example.test>` }),
      flags: 'S',
    },
    {
      raw: message({
        from: 'Alice Liddell <alice@friends.example>', subject: 'Re: Lunch plans', id: 'lunch-3', minute: 3, body: 'The place by the river, at noon.',
        headers: `In-Reply-To: <lunch-2@example.test>${CRLF}References: <lunch-1@example.test> <lunch-2@example.test>`,
      }),
    },
  ]
  dovecot.writeMessages(MAILBOX, [
    ...Array.from({ length: 5 }, (_, i) => ({ raw: sampleMail(i * 8).raw, flags: 'S' })), // plain messages, read, in January
    ...thread,
    { raw: reportMessage() },
    { raw: message({ from: 'Carol <carol@secure.example>', subject: 'Encrypted note', id: 'secret', minute: 35, body: `Open this with your key:${CRLF}${CRLF}${armored}` }) },
    { raw: xssMessage() },
  ])
}

const toast = (p: Page, title: string) => p.getByTestId('toast').filter({ has: p.getByText(title, { exact: true }) })
const row = (p: Page, subject: string) => p.getByTestId('email-row').filter({ has: p.getByTestId('row-subject').getByText(subject, { exact: true }) })
async function screenshot(p: Page, name: string, docs = false) {
  await p.evaluate(() => window.scrollTo(0, 0))
  await p.screenshot({ path: path.join(docs ? DOCS : SCREENSHOTS, name), fullPage: true })
}

/** The message as another IMAP client sees it: its folder and flags, or undefined once gone from INBOX. */
async function onServer(messageId: string, folder = 'INBOX'): Promise<string[] | undefined> {
  const client = await dovecot.client(MAILBOX)
  try {
    await client.mailboxOpen(folder)
    for await (const m of client.fetch('1:*', { envelope: true, flags: true })) {
      if (m.envelope?.messageId === `<${messageId}@example.test>`) return [...(m.flags ?? [])].sort()
    }
    return undefined
  } finally {
    await client.logout()
  }
}

/** The id of MAILBOX's account, as the page's own API answers it. */
async function folderAccount(p: Page): Promise<string> {
  return p.evaluate(async (mailbox) => {
    const { providers } = await (await fetch('/api/email-providers')).json()
    return providers.find((x: { email: string }) => x.email === mailbox).id
  }, MAILBOX)
}

beforeAll(async () => {
  if (!run) return
  tracker = await startImageTracker()
  identity = await generateX25519Identity()
  dovecot = await startDovecot()
  const password = dovecot.addUser(MAILBOX)
  await seed()

  inbox = await startInboxBrowser(dovecot)
  ;({ env, server, browser, page } = inbox)

  // A user signs up through the pages, gets an alias and connects the Dovecot mailbox.
  await registerThroughForm(page, server.url, env.mailbox, 'reader@example.com')
  expect(await createAliasFromPage(page, ALIAS)).toBe(201)
  await connectMailbox(page, dovecot, MAILBOX, password)
}, 180_000)
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await page?.screenshot({ path: path.join(SCREENSHOTS, `inbox-failure-${task.name.slice(0, 30).replace(/\W+/g, '-')}.png`), fullPage: true })
})
afterAll(async () => {
  await inbox?.close()
  await dovecot?.stop()
  tracker?.close()
})

describe.skipIf(!run)('the inbox in the browser', () => {
  it('lists the mailbox as conversations, with counts, storage and the account', async () => {
    await page.goto(server.url + '/inbox')
    await row(page, 'Re: Lunch plans').waitFor()
    await expect.poll(() => page.getByRole('link', { name: '_INBOX' }).getAttribute('aria-current')).toBe('page')
    const rows = page.getByTestId('email-row')
    // 5 plain + 1 conversation of 3 + report + encrypted note + deals = 9 rows, newest first
    expect(await rows.count()).toBe(9)
    expect(await rows.getByTestId('row-subject').allInnerTexts()).toEqual(expect.arrayContaining(['Weekly deals', 'Encrypted note', 'Quarterly report', 'Re: Lunch plans']))
    expect(await rows.first().getByTestId('row-subject').innerText()).toBe('Weekly deals')
    const lunch = row(page, 'Re: Lunch plans')
    expect(await lunch.getByTestId('row-sender').innerText()).toBe('Alice Liddell (3)')
    expect(await lunch.getAttribute('data-unread')).toBe('true')
    expect(await row(page, 'Quarterly report').getByLabel('Has attachments').count()).toBe(1)
    expect(await lunch.locator('time').innerText()).toBe('Nov 20')
    // the pager counts what the rows are: 9 conversations (of 11 messages)
    expect(await page.getByTestId('pager-text').innerText()).toBe('1-9 of 9')
    // unread: lunch-3, report, note, deals
    expect(await page.getByTestId('count-inbox').innerText()).toBe('4')
    // the specification's estimate: about 5.2 KB an e-mail, rounded
    expect(await page.getByTestId('storage').innerText()).toBe('11 emails · ~57 KB')
    const account = page.getByRole('region', { name: 'ACCOUNTS' }).getByRole('link', { name: MAILBOX })
    expect(await account.getByRole('img', { name: 'active' }).count()).toBe(1)
    await screenshot(page, 'inbox.png', true)

    await page.getByRole('link', { name: 'Unread' }).click()
    await page.getByTestId('pager-text').getByText('4 unread conversations').waitFor()
    await page.getByRole('link', { name: 'Starred' }).click()
    await page.getByText('No emails found. Try syncing your accounts.').waitFor()
    // the first of two: the category, then the account's INBOX folder
    await page.getByRole('link', { name: /^Inbox( \d+)?$/ }).first().click()
    await row(page, 'Weekly deals').waitFor()
  })

  it('reads a conversation oldest first with the newest open, and the read reaches the server', async () => {
    await row(page, 'Re: Lunch plans').getByRole('button', { name: /Alice Liddell \(3\)/ }).click()
    await page.waitForURL(/\/inbox\/[0-9a-f-]{36}$/)
    const detail = page.getByTestId('email-detail')
    await detail.getByRole('heading', { name: 'Re: Lunch plans', level: 1 }).waitFor()
    await detail.getByText('3 messages').waitFor()
    const messages = detail.getByTestId('conversation-message')
    await expect.poll(() => messages.evaluateAll((items) => items.map((i) => i.getAttribute('data-expanded')))).toEqual(['false', 'false', 'true'])
    await messages.nth(2).getByText('The place by the river, at noon.').waitFor()
    expect(await messages.nth(0).innerText()).toContain('Shall we have lunch on Friday?') // the collapsed row's preview
    await messages.nth(0).getByRole('button', { expanded: false }).click()
    await messages.nth(0).getByTestId('plain-body').getByText('Shall we have lunch on Friday?').waitFor()
    await screenshot(page, 'inbox-conversation-1280.png')

    // opening it read the newest message: the sidebar says so and Dovecot has \Seen
    await expect.poll(() => page.getByTestId('count-inbox').innerText()).toBe('3')
    await expect.poll(() => onServer('lunch-3'), { timeout: 30_000, interval: 500 }).toEqual(['\\Seen'])
  })

  it('stars and deletes, and another IMAP client sees both', async () => {
    await page.getByRole('button', { name: 'Back' }).click()
    const report = row(page, 'Quarterly report')
    await report.getByRole('button', { name: 'Star' }).click()
    // at once, before the server answered
    expect(await report.getByRole('button', { name: 'Unstar' }).getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => page.getByTestId('count-starred').innerText()).toBe('1')
    await expect.poll(() => onServer('report'), { timeout: 30_000, interval: 500 }).toEqual(['\\Flagged'])

    // one message deleted from the list with the bulk action
    const plain = row(page, 'Plain message 8')
    await plain.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Delete (1)' }).click()
    // moved to Trash, not gone: the toast offers Undo
    await toast(page, 'Emails deleted').getByText('1 email deleted successfully').waitFor()
    await toast(page, 'Emails deleted').getByRole('button', { name: 'Undo' }).waitFor()
    await plain.waitFor({ state: 'detached' })
    const sampleId = sampleMail(8).messageId
    const inFolder = async (folder: string) => {
      const client = await dovecot.client(MAILBOX)
      try {
        await client.mailboxOpen(folder)
        for await (const m of client.fetch('1:*', { envelope: true })) if (m.envelope?.messageId === sampleId) return true
        return false
      } finally {
        await client.logout()
      }
    }
    await expect.poll(() => inFolder('INBOX'), { timeout: 30_000, interval: 500 }).toBe(false)
    expect(await inFolder('Trash')).toBe(true)

    // one message deleted from its page, with its confirmation dialog
    await report.getByRole('button', { name: /Bob Builder/ }).click()
    const detail = page.getByTestId('email-detail')
    await detail.getByText('The figures are attached.').waitFor()
    await detail.getByRole('link', { name: 'https://work.example/q4' }).waitFor()
    expect(await detail.getByRole('link', { name: /report\.pdf/ }).getAttribute('href')).toMatch(/^\/api\/emails\/[0-9a-f-]+\/attachments\//)
    // outside Trash no question: it moves to Trash, with Undo
    await detail.getByRole('button', { name: 'Delete' }).first().click()
    await toast(page, 'Email deleted').getByText('Email deleted successfully').waitFor()
    expect(await page.getByRole('dialog', { name: 'Delete Email' }).count()).toBe(0)
    await page.waitForURL(/\/inbox$/)
    await expect.poll(() => onServer('report'), { timeout: 30_000, interval: 500 }).toBeUndefined()
    expect(await onServer('report', 'Trash')).toBeDefined()
  })

  it('replies through the compose dialog until the relay has the mail and the status says sent', async () => {
    await row(page, 'Re: Lunch plans').getByRole('button', { name: /Alice Liddell/ }).click()
    await page.getByTestId('email-detail').getByText('3 messages').waitFor()
    await page.getByTestId('email-detail').getByRole('button', { name: 'Reply' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Reply to: Re: Lunch plans' })
    const form = dialog.getByRole('form', { name: 'Compose Email' })
    expect(await form.getByLabel('To', { exact: true }).inputValue()).toBe('alice@friends.example')
    expect(await form.getByLabel('Subject').inputValue()).toBe('Re: Lunch plans')
    expect(await form.getByLabel('Message').inputValue()).toContain('-------- Original Message --------\nFrom: Alice Liddell <alice@friends.example>')
    expect(await form.getByLabel('From').inputValue()).not.toBe('') // the only alias is chosen
    await form.getByLabel('Message').press('Control+Home')
    await form.getByLabel('Message').pressSequentially('See you there!')
    await page.setViewportSize({ width: 375, height: 812 })
    await screenshot(page, 'inbox-reply-375.png')
    await page.setViewportSize({ width: 1280, height: 900 })
    await form.getByRole('button', { name: 'Send' }).click()
    await toast(page, 'Reply sent').waitFor()
    await dialog.waitFor({ state: 'detached' })

    const relayed = await waitFor(env.relay, 'message', () => env.relay.messages.find((m) => m.to.includes('alice@friends.example')), 30_000)
    expect(relayed.from).toBe(ALIAS)
    const parsed = await simpleParser(relayed.raw)
    // "Re:" once, and threaded under the message answered (RFC 5322 §3.6.4)
    expect(parsed.subject).toBe('Re: Lunch plans')
    expect(parsed.inReplyTo).toBe('<lunch-3@example.test>')
    expect(parsed.references).toEqual(['<lunch-1@example.test>', '<lunch-2@example.test>', '<lunch-3@example.test>'])
    expect(parsed.text).toMatch(/^See you there!/)
    expect(parsed.text).toContain('> The place by the river, at noon.')
    // the job's status is polled every 10 s until it says sent
    await toast(page, 'Email sent successfully').waitFor({ timeout: 40_000 })
    // sent: the message answered is \Answered on the IMAP server
    await expect.poll(() => onServer('lunch-3'), { timeout: 30_000, interval: 500 }).toEqual(['\\Answered', '\\Seen'])
  }, 90_000)

  it('opens an encrypted block in the page with a pasted private key', async () => {
    await page.goto(server.url + '/inbox')
    await row(page, 'Encrypted note').getByRole('button', { name: /Carol/ }).click()
    const block = page.getByTestId('encrypted-block')
    await block.getByRole('heading', { name: 'Encrypted Message' }).waitFor()
    await page.getByText('Open this with your key:').waitFor()
    await block.getByRole('button', { name: 'Decrypt' }).click()
    await block.getByRole('tab', { name: 'Manual' }).click()
    await block.getByLabel('Private Key').fill(identity)
    await block.getByRole('button', { name: 'Decrypt Message' }).click()
    await toast(page, 'Message decrypted').waitFor()
    expect(await block.getByTestId('decrypted-text').innerText()).toBe('The vault code is 4711.')
    await block.getByRole('button', { name: 'Show Original' }).click()
    await block.getByText('-----BEGIN AGE ENCRYPTED FILE-----').waitFor()
  })

  it('shows hostile HTML with no script run and nothing fetched until "Show images"', async () => {
    const pageRequests: string[] = []
    page.on('request', (r) => pageRequests.push(r.url()))
    let dialogs = 0
    page.on('dialog', (d) => {
      dialogs++
      void d.dismiss()
    })
    const opened = await page.goto(server.url + '/inbox')
    // the app names none of its pages to other servers, the mail frame's requests included
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer')
    await row(page, 'Weekly deals').getByRole('button', { name: /Shop Deals/ }).click()
    const body = page.frameLocator('iframe[title="Message body"]')
    await body.getByText('Deals of the').waitFor()
    // the frame has loaded everything it was going to load
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLIFrameElement>('iframe[title="Message body"]')?.contentDocument?.readyState)).toBe('complete')

    const inFrame = () => page.evaluate(() => {
      const doc = document.querySelector<HTMLIFrameElement>('iframe[title="Message body"]')!.contentDocument!
      const all = Array.from(doc.querySelectorAll('*'))
      return {
        sandbox: document.querySelector('iframe[title="Message body"]')!.getAttribute('sandbox'),
        scripts: doc.querySelectorAll('script').length,
        handlers: all.flatMap((el) => Array.from(el.attributes).filter((a) => a.name.startsWith('on')).map((a) => a.name)),
        active: doc.querySelectorAll('svg, meta[http-equiv], form, input, iframe, object, embed, base').length,
        jsLink: doc.getElementById('js-link')?.getAttribute('href') ?? null,
        deal: { href: doc.getElementById('deal')?.getAttribute('href'), target: doc.getElementById('deal')?.getAttribute('target'), rel: doc.getElementById('deal')?.getAttribute('rel') },
        remoteSrc: doc.querySelector('img[alt="remote"]')?.getAttribute('src') ?? null,
        csp: doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
      }
    })
    expect(tracker.hits).toEqual([])
    expect(pageRequests.filter((url) => url.startsWith(tracker.url))).toEqual([])
    const before = await inFrame()
    expect(before).toMatchObject({
      sandbox: 'allow-same-origin allow-popups allow-popups-to-escape-sandbox', scripts: 0, handlers: [], active: 1 /* our own CSP meta */, jsLink: null,
      deal: { href: 'https://shop.example/deal', target: '_blank', rel: 'noopener noreferrer' }, remoteSrc: null,
    })
    expect(before.csp).toContain('img-src data:;')
    await page.getByTestId('remote-blocked').waitFor()
    await screenshot(page, 'inbox-html-blocked-1280.png')

    await page.getByRole('button', { name: 'Show images' }).click()
    await expect.poll(() => tracker.hits.includes('/pixel.png'), { timeout: 10_000 }).toBe(true)
    const after = await inFrame()
    expect(after).toMatchObject({ scripts: 0, handlers: [], jsLink: null, remoteSrc: `${tracker.url}/pixel.png` })
    await expect.poll(() => tracker.hits.includes('/css-bg.png')).toBe(true)
    // images only: no script, handler, link, form, frame or refresh ever reached the listener
    expect(tracker.hits.filter((hit) => !/\.png$/.test(hit))).toEqual([])
    // and none of them said where the mail was read (the image asked for its full URL: referrerpolicy is not kept)
    expect(tracker.requests.filter((r) => r.referer !== undefined)).toEqual([])
    expect(await page.title()).not.toBe('owned')
    expect(dialogs).toBe(0)
  })

  it('counts remote images named in escaped CSS: "Show images", nothing fetched before it, and no Referer after it', async () => {
    await dovecot.append(MAILBOX, [{ raw: escapedCssMessage() }])
    const providerId = await folderAccount(page)
    const jobId = await page.evaluate(async (url) => (await (await fetch(url, { method: 'POST' })).json()).jobId, `/api/email-providers/${providerId}/sync`)
    await waitForSyncJob(page, `/api/email-providers/${providerId}/sync-jobs/${jobId}`)
    const escaped = (hit: string) => hit.startsWith('/escaped-')
    await page.goto(server.url + '/inbox')
    await row(page, 'Escaped styles').getByRole('button', { name: /Escaped styles/ }).click()
    const frame = page.frameLocator('iframe[title="Message body"]')
    await frame.getByText('Our new styles').waitFor()
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLIFrameElement>('iframe[title="Message body"]')?.contentDocument?.readyState)).toBe('complete')
    await page.getByTestId('remote-blocked').getByRole('button', { name: 'Show images' }).waitFor()
    expect(tracker.hits.filter(escaped)).toEqual([])

    await page.getByRole('button', { name: 'Show images' }).click()
    // the images; the stylesheet never, shown or not
    await expect.poll(() => [...new Set(tracker.hits.filter(escaped))].sort()).toEqual(['/escaped-attr.png', '/escaped-style.png'])
    // and no request named the app's page
    expect(tracker.requests.filter((r) => escaped(r.path) && r.referer !== undefined)).toEqual([])
  })

  it('fits 375, 768 and 1280 px, with the sidebar in a drawer below 1024 px', async () => {
    for (const [width, height] of [[375, 812], [768, 1024], [1280, 900]] as const) {
      await page.setViewportSize({ width, height })
      await page.goto(server.url + '/inbox')
      await row(page, 'Weekly deals').waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      const drawerButton = page.getByRole('button', { name: 'Open mailboxes' })
      if (width < 1024) {
        expect(await page.getByRole('complementary', { name: 'Mailboxes' }).count()).toBe(0)
        expect(await row(page, 'Weekly deals').locator('time').innerText()).toBe('11/20')
        await screenshot(page, `inbox-list-${width}.png`)
        await drawerButton.click()
        const drawer = page.getByRole('dialog', { name: '_INBOX' })
        await drawer.getByRole('button', { name: 'Compose' }).waitFor()
        await screenshot(page, `inbox-drawer-${width}.png`)
        await page.getByTestId('drawer-overlay').click({ position: { x: width - 10, y: height / 2 } })
        await drawer.waitFor({ state: 'detached' })
      } else {
        expect(await drawerButton.count()).toBe(0)
        await page.getByRole('complementary', { name: 'Mailboxes' }).getByRole('button', { name: 'Compose' }).waitFor()
        await screenshot(page, `inbox-list-${width}.png`)
      }
      await row(page, 'Re: Lunch plans').getByRole('button', { name: /Alice Liddell/ }).click()
      await page.getByTestId('email-detail').getByText('3 messages').waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await screenshot(page, `inbox-detail-${width}.png`)
    }
  })

  it('puts a failed star back and says so', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(server.url + '/inbox')
    const deals = row(page, 'Weekly deals')
    await deals.waitFor()
    // the network fails for this one request, as when the connection drops
    await page.route('**/api/emails/*', (route) => (route.request().method() === 'PATCH' ? route.abort('connectionreset') : route.continue()))
    await deals.getByRole('button', { name: 'Star' }).click()
    await toast(page, 'Error').getByText('Failed to update star status. Please try again.').waitFor()
    expect(await deals.getByRole('button', { name: 'Star' }).getAttribute('aria-pressed')).toBe('false')
    await page.unroute('**/api/emails/*')
    // read when it was opened above (its write-back is a job of its own); never starred
    await expect.poll(() => onServer('deals'), { timeout: 30_000, interval: 500 }).toEqual(['\\Seen'])
  })

  it('pages a second, larger account, marks read in bulk, and the server sees it', async () => {
    const big = 'big@example.test'
    const password = dovecot.addUser(big)
    // 55 single messages and, newer than all, a conversation of 3: 56 conversations of 58 messages
    const budget = (n: number, minute: number, headers?: string) => ({
      raw: message({ from: 'Erin <erin@team.example>', subject: n === 1 ? 'Budget' : 'Re: Budget', id: `budget-${n}`, minute, body: `Budget ${n}.`, headers }),
    })
    dovecot.writeMessages(big, [
      ...Array.from({ length: 55 }, (_, i) => ({ raw: sampleMail(1000 + i * 8).raw })),
      budget(1, 10), budget(2, 11, `In-Reply-To: <budget-1@example.test>${CRLF}References: <budget-1@example.test>`),
      budget(3, 12, `In-Reply-To: <budget-2@example.test>${CRLF}References: <budget-1@example.test> <budget-2@example.test>`),
    ])
    const providerId = await connectMailbox(page, dovecot, big, password)
    await page.goto(server.url + '/inbox')
    const accounts = page.getByRole('region', { name: 'ACCOUNTS' })
    await accounts.getByRole('link', { name: 'All accounts' }).waitFor()
    // in All accounts each row says which account it came to; the sender by name
    await expect.poll(() => row(page, 'Re: Budget').getByTestId('row-account').innerText()).toBe(big)
    expect(await row(page, 'Re: Budget').getByTestId('row-sender').innerText()).toBe('Erin (3)')
    expect(await row(page, 'Weekly deals').getByTestId('row-account').innerText()).toBe(MAILBOX)
    await accounts.getByRole('link', { name: big }).click()
    // one account's list needs no label
    await page.waitForURL(`**/inbox?account=${providerId}`)
    await expect.poll(() => page.getByTestId('row-account').count()).toBe(0)
    await page.waitForURL(`**/inbox?account=${providerId}`)
    // pages of 50 conversations, counted as conversations
    await page.getByTestId('pager-text').getByText('1-50 of 56').waitFor()
    expect(await page.getByTestId('email-row').count()).toBe(50)
    expect(await row(page, 'Re: Budget').getByTestId('row-sender').innerText()).toBe('Erin (3)')
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.getByTestId('pager-text').getByText('51-56 of 56').waitFor()
    await expect.poll(() => page.getByTestId('email-row').count()).toBe(6)

    // two selected: Mark Read (2); the select-all box shows the partial selection
    const rows = page.getByTestId('email-row')
    const subjects = await rows.getByTestId('row-subject').allInnerTexts()
    await rows.nth(0).getByRole('checkbox').check()
    await rows.nth(1).getByRole('checkbox').check()
    expect(await page.getByRole('checkbox', { name: 'Select all' }).evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true)
    await page.getByRole('button', { name: 'Mark Read (2)' }).click()
    await toast(page, 'Emails marked as read').getByText('2 emails updated').waitFor()
    await expect.poll(() => rows.evaluateAll((items) => items.map((i) => i.getAttribute('data-unread')))).toEqual(['false', 'false', 'true', 'true', 'true', 'true'])
    // the rest with mark-all-read
    await page.getByRole('button', { name: 'Mark all read' }).click()
    await toast(page, 'Emails marked as read').getByText('4 emails updated').waitFor()
    const seen = async () => {
      const client = await dovecot.client(big)
      try {
        await client.mailboxOpen('INBOX')
        const flagged: string[] = []
        for await (const m of client.fetch('1:*', { envelope: true, flags: true })) if (m.flags?.has('\\Seen')) flagged.push(m.envelope?.subject ?? '')
        return flagged.sort()
      } finally {
        await client.logout()
      }
    }
    await expect.poll(seen, { timeout: 30_000, interval: 500 }).toEqual([...subjects].sort())

    // Mark Unread: a row unread again, here and on the server
    await rows.nth(0).getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Mark Unread (1)' }).click()
    await toast(page, 'Emails marked as unread').getByText('1 email updated').waitFor()
    await expect.poll(() => rows.nth(0).getAttribute('data-unread')).toBe('true')
    await expect.poll(seen, { timeout: 30_000, interval: 500 }).toEqual(subjects.slice(1).sort())
    // and from a message's page: opening it read it; Mark unread goes back to the list with it unread
    await rows.nth(1).getByRole('button', { name: new RegExp(subjects[1]) }).click()
    await page.getByTestId('email-detail').getByRole('button', { name: 'Mark unread' }).click()
    await page.waitForURL(/\/inbox\?account=/)
    await expect.poll(() => rows.nth(1).getAttribute('data-unread')).toBe('true')
    await expect.poll(seen, { timeout: 30_000, interval: 500 }).toEqual(subjects.slice(2).sort())
  })

  it("shows each account's synced folders with unread counts, and one folder's mail alone", async () => {
    dovecot.writeMessages(MAILBOX, [
      { raw: message({ from: 'Dana <dana@archive.example>', subject: 'Archived invoice', id: 'archived-1', minute: 50, body: 'Invoice 42.' }) },
      { raw: message({ from: 'Dana <dana@archive.example>', subject: 'Old newsletter', id: 'archived-2', minute: 51, body: 'News.' }), flags: 'S' },
    ], 'Archive')
    await page.goto(server.url + '/inbox')
    const accounts = page.getByRole('region', { name: 'ACCOUNTS' })
    const folders = accounts.getByRole('list', { name: `Folders of ${MAILBOX}` })
    await folders.getByRole('link', { name: /^Inbox/ }).waitFor()
    expect(await folders.getByRole('link').count()).toBe(1)
    // Archive turned on (as the settings' switch does), and its first sync done
    const providerId = await folderAccount(page)
    const jobId = await page.evaluate(async (url) => (await (await fetch(url, {
      method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ path: 'Archive', enabled: true }),
    })).json()).jobId, `/api/email-providers/${providerId}/folders`)
    await waitForSyncJob(page, `/api/email-providers/${providerId}/sync-jobs/${jobId}`)

    // the account's every folder: INBOX's mail and Archive's together
    await page.goto(`${server.url}/inbox?account=${providerId}`)
    await row(page, 'Archived invoice').waitFor()
    await row(page, 'Weekly deals').waitFor()
    const archive = folders.getByRole('link', { name: /^Archive/ })
    expect(await archive.getByTestId('folder-unread').innerText()).toBe('1')

    await archive.click()
    await page.waitForURL(`**/inbox?account=${providerId}&folder=*`)
    // the URL changes before the sidebar's render that marks the folder
    await expect.poll(() => archive.getAttribute('aria-current')).toBe('page')
    await page.getByTestId('pager-text').getByText('1-2 of 2').waitFor()
    await expect.poll(() => page.getByTestId('email-row').getByTestId('row-subject').allInnerTexts()).toEqual(['Old newsletter', 'Archived invoice'])
    await page.getByRole('heading', { name: 'Archive', level: 1 }).waitFor({ state: 'attached' })
    await screenshot(page, 'inbox-folder-1280.png')

    // INBOX alone: none of Archive's
    await folders.getByRole('link', { name: /^Inbox/ }).click()
    await row(page, 'Weekly deals').waitFor()
    expect(await page.getByTestId('email-row').getByTestId('row-subject').allInnerTexts()).not.toContain('Archived invoice')
    // the account again: every folder
    await accounts.getByRole('link', { name: MAILBOX }).click()
    await row(page, 'Archived invoice').waitFor()
    await expect.poll(() => archive.getAttribute('aria-current')).toBeNull()
  }, 120_000)

  it("archives to the account's Archive folder with Undo in the toast, from the list and from a message's page", async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(server.url + '/inbox')
    const note = row(page, 'Encrypted note')
    await note.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Archive (1)' }).click()
    const archived = toast(page, 'Archived')
    await archived.getByText('1 email archived').waitFor()
    await note.waitFor({ state: 'detached' })
    // Undo: it is back
    await archived.getByRole('button', { name: 'Undo' }).click()
    await toast(page, 'Restored').waitFor()
    await note.waitFor()
    // from its page; on the server it moves to Archive once the undo window has passed
    await note.getByRole('button', { name: /Carol/ }).click()
    await page.getByTestId('email-detail').getByRole('button', { name: 'Archive' }).click()
    await toast(page, 'Archived').getByText('Email archived').waitFor()
    await page.waitForURL(/\/inbox$/)
    await note.waitFor({ state: 'detached' })
    await expect.poll(() => onServer('secret'), { timeout: 40_000, interval: 500 }).toBeUndefined()
    expect(await onServer('secret', 'Archive')).toBeDefined()

    // Move to: any other folder of the account
    const deals = row(page, 'Weekly deals')
    await deals.getByRole('checkbox').check()
    await page.getByRole('combobox', { name: 'Move to folder' }).selectOption({ label: 'Sent' })
    await toast(page, 'Moved').getByText('1 email moved').waitFor()
    await deals.waitFor({ state: 'detached' })
    await expect.poll(() => onServer('deals'), { timeout: 40_000, interval: 500 }).toBeUndefined()
    expect(await onServer('deals', 'Sent')).toBeDefined()
  }, 120_000)

  it('deletes a conversation to Trash with Undo in the toast, and in Trash deletes for good after asking', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(server.url + '/inbox')
    const lunch = row(page, 'Re: Lunch plans')
    await lunch.getByRole('button', { name: /Alice Liddell/ }).click()
    const detail = page.getByTestId('email-detail')
    await detail.getByText('3 messages').waitFor()
    await detail.getByRole('button', { name: 'Delete' }).first().click()
    const deleted = toast(page, 'Conversation deleted')
    await deleted.getByText('Conversation deleted successfully').waitFor()
    await page.waitForURL(/\/inbox$/)
    await lunch.waitFor({ state: 'detached' })
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-delete-undo-1280.png') })
    // Undo: the conversation is back, and no write-back moves it (every mailbox-changes job done, the three still in INBOX)
    await deleted.getByRole('button', { name: 'Undo' }).click()
    await toast(page, 'Restored').waitFor()
    await lunch.waitFor()
    const writeBacksLeft = async () => (await env.db.sql<{ n: number }[]>`
      select count(*)::int as n from pgboss.job where name = 'mailbox-changes' and state in ('created', 'retry', 'active')`)[0].n
    await expect.poll(writeBacksLeft, { timeout: 30_000, interval: 500 }).toBe(0)
    for (const id of ['lunch-1', 'lunch-2', 'lunch-3']) expect(await onServer(id), id).toBeDefined()

    // deleted again, and left: in Trash on the server
    await lunch.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Delete (1)' }).click()
    await toast(page, 'Emails deleted').getByText('3 emails deleted successfully').waitFor()
    await expect.poll(() => onServer('lunch-3'), { timeout: 30_000, interval: 500 }).toBeUndefined()
    for (const id of ['lunch-1', 'lunch-2', 'lunch-3']) await expect.poll(() => onServer(id, 'Trash'), { timeout: 30_000, interval: 500 }).toBeDefined()

    // Trash synced too: there, Delete asks first and deletes for good
    const providerId = await folderAccount(page)
    const jobId = await page.evaluate(async (url) => (await (await fetch(url, {
      method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ path: 'Trash', enabled: true }),
    })).json()).jobId, `/api/email-providers/${providerId}/folders`)
    await waitForSyncJob(page, `/api/email-providers/${providerId}/sync-jobs/${jobId}`)
    await page.goto(`${server.url}/inbox?account=${providerId}`)
    await page.getByRole('list', { name: `Folders of ${MAILBOX}` }).getByRole('link', { name: /^Trash/ }).click()
    await page.waitForURL(`**/inbox?account=${providerId}&folder=*`)
    // each deleted message once: two write-backs of the account never MOVE the same message at once
    expect(await row(page, 'Plain message 8').getByTestId('row-sender').innerText()).toBe('Sender 8')
    await lunch.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Delete (1)' }).click()
    const ask = page.getByRole('dialog', { name: 'Delete Emails' })
    await ask.getByText('Are you sure you want to delete these 3 emails for good? This action cannot be undone.').waitFor()
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inbox-trash-delete-1280.png') })
    await ask.getByRole('button', { name: 'Delete' }).click()
    await toast(page, 'Emails deleted').getByText('3 emails deleted successfully').waitFor()
    expect(await toast(page, 'Emails deleted').getByRole('button', { name: 'Undo' }).count()).toBe(0)
    for (const id of ['lunch-1', 'lunch-2', 'lunch-3']) await expect.poll(() => onServer(id, 'Trash'), { timeout: 30_000, interval: 500 }).toBeUndefined()
  }, 150_000)

  it('shows a user without accounts the settings first, then the empty inbox', async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const p = await other.newPage()
    await registerThroughForm(p, server.url, env.mailbox, 'newcomer@example.com')
    await p.getByRole('link', { name: '_INBOX' }).click()
    await p.waitForURL('**/inbox/settings')
    await p.getByRole('link', { name: '_INBOX' }).click()
    await p.getByText('Connect an email account to see your inbox').waitFor()
    await p.getByRole('region', { name: 'ACCOUNTS' }).getByRole('link', { name: 'Add Email Account' }).waitFor()
    // the counts come by a query of their own ('…' until it answers)
    await expect.poll(() => p.getByTestId('storage').innerText()).toBe('0 emails · 0 KB')
    await other.close()
  })
})
