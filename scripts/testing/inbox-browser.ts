// The webmail in a real browser: the mail environment (queues, delivery worker, relay stand-in),
// the real sync worker reading a private Dovecot, and the web process with Chromium. What a page
// does through the API is done from the page, with its session cookie, as the app itself does.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { startSyncWorker } from '../../workers/sync/sync-worker.ts'
import { closeBrowserSuite, startBrowserSuite, type BrowserSuite } from './browser-suite.ts'
import type { Dovecot } from './dovecot.ts'
import { createMailEnv, type MailEnv } from './mail-env.ts'
import { imapCredentials } from './mailbox-accounts.ts'
import type { WebServer } from './web-server.ts'

export interface InboxBrowser {
  env: MailEnv
  suite: BrowserSuite
  server: WebServer
  browser: Browser
  context: BrowserContext
  page: Page
  close(): Promise<void>
}

/** Starts everything the inbox needs against `dovecot`, with one page open (undo window of 1 s). */
export async function startInboxBrowser(dovecot: Dovecot, context: BrowserContextOptions = {}): Promise<InboxBrowser> {
  const env = await createMailEnv({ env: { UNDO_SECONDS: '1' } })
  let stopSync: (() => Promise<void>) | undefined
  let suite: BrowserSuite | undefined
  const close = async () => {
    if (suite) await closeBrowserSuite(suite)
    await stopSync?.()
    await env.close()
  }
  try {
    stopSync = await startSyncWorker(env.boss, { sql: env.db.sql, boss: env.boss, config: env.config, imapCa: dovecot.ca }, { concurrency: 2, intervalSeconds: 3600, pollSeconds: 1 })
    suite = await startBrowserSuite({
      db: env.db,
      env: {
        OUTBOUND_SMTP_URL: env.relay.url, UNDO_SECONDS: '1', NODE_EXTRA_CA_CERTS: dovecot.caFile, SECRET_KEY: env.config.secretKey, MAIL_DOMAINS: env.config.mailDomains.join(','), ALLOW_PRIVATE_NETWORKS: 'true', METRICS_PORT: '0',
      },
    })
    const browserContext = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, ...context })
    const page = await browserContext.newPage()
    page.setDefaultTimeout(15_000)
    return { env, suite, server: suite.server, browser: suite.browser, context: browserContext, page, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** Creates an alias for the signed-in user from the page; the API's status. */
export async function createAliasFromPage(page: Page, alias: string, forwardTo = 'owner@example.com'): Promise<number> {
  return page.evaluate(async ({ alias, forwardTo }) => {
    const { user } = await (await fetch('/api/auth/session')).json()
    const [local, domain] = alias.split('@')
    const made = await fetch(`/api/aliases/${user.id}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ alias: local, domain, forwardTo }),
    })
    return made.status
  }, { alias, forwardTo })
}

/** Connects a Dovecot mailbox from the page and waits for its first sync; the account's id. */
export async function connectMailbox(page: Page, dovecot: Dovecot, mailbox: string, password: string): Promise<string> {
  const added = await page.evaluate(async ({ credentials, mailbox }) => {
    const res = await fetch('/api/email-providers', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ provider: 'other', email: mailbox, encryptedCredentials: credentials }),
    })
    return { status: res.status, body: await res.json() }
  }, { mailbox, credentials: imapCredentials({ email: mailbox, password, host: dovecot.host, port: dovecot.port }) })
  if (added.status !== 202) throw new Error(`adding the account answered ${added.status}`)
  // the first sync, as the settings page polls it
  await waitForSyncJob(page, `/api/email-providers/${added.body.provider.id}/sync-jobs/${added.body.jobId}`)
  return added.body.provider.id
}

/** Polls a sync job as the settings page does, until it is done. */
export async function waitForSyncJob(page: Page, jobUrl: string): Promise<void> {
  for (let status = ''; status !== 'done';) {
    status = await page.evaluate(async (url) => (await (await fetch(url)).json()).status, jobUrl)
    if (status === 'failed') throw new Error('the sync failed')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** A row of the inbox list, by its subject. */
export const emailRow = (p: Page, subject: string) => p.getByTestId('email-row').filter({ has: p.getByTestId('row-subject').getByText(subject, { exact: true }) })

/** Opens a message from the list at `inboxUrl` by its subject and sender, and waits for its detail. */
export async function openMessage(p: Page, inboxUrl: string, subject: string, sender: RegExp): Promise<void> {
  await p.goto(inboxUrl)
  await emailRow(p, subject).getByRole('button', { name: sender }).click()
  await p.waitForURL(/\/inbox\/[0-9a-f-]{36}$/)
  await p.getByTestId('email-detail').getByRole('heading', { name: subject, level: 1 }).waitFor()
}
