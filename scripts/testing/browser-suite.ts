// What a browser test file runs against: a database of its own, the real web process on it and
// Chromium, started in its beforeAll and stopped in its afterAll (browser first, database last).
import path from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, type TestContext } from 'vitest'
import { browserAvailable, launchBrowser, SCREENSHOTS } from './browser.ts'
import { registerThroughForm } from './browser-account.ts'
import { TEST_SECRET_KEY } from './test-app.ts'
import { createTestDatabase, type TestDatabase } from './test-database.ts'
import { startWebServer, type WebServer } from './web-server.ts'

export interface BrowserSuite {
  db: TestDatabase
  server: WebServer
  browser: Browser
  /** A new page at `width` × 900 px, on `route` of the web process. */
  open(route: string, width?: number): Promise<Page>
}

interface BrowserSuiteOptions {
  /** Environment of the web process (MAIL_DOMAINS, ports, …). */
  env?: Record<string, string>
  /** Rows the web process should find at its start (landing figures read at start, say). */
  seed?: (db: TestDatabase) => Promise<unknown>
  /** A database the caller made (a mail environment's, a test app's) and drops itself; unset = one of the suite's own. */
  db?: TestDatabase
  /** The host name the app is served and reached at (default 127.0.0.1; passkeys need `localhost`). */
  host?: string
}

/** Databases a suite was given: closeBrowserSuite leaves them to their owner. */
const borrowed = new WeakSet<TestDatabase>()

export async function startBrowserSuite(options: BrowserSuiteOptions = {}): Promise<BrowserSuite> {
  const db = options.db ?? await createTestDatabase()
  if (options.db) borrowed.add(db)
  let server: WebServer | undefined
  try {
    await options.seed?.(db)
    server = await startWebServer(db.url, options.env, options.host)
    const browser = await launchBrowser()
    const url = server.url
    return {
      db, server, browser,
      async open(route, width = 1280) {
        const page = await browser.newPage({ viewport: { width, height: 900 } })
        await page.goto(url + route)
        return page
      },
    }
  } catch (error) {
    await closeBrowserSuite({ db, server })
    throw error
  }
}

/** Stops whatever of a suite was started; for afterAll, where a failed beforeAll may have left a part. */
export async function closeBrowserSuite(suite: Partial<Omit<BrowserSuite, 'open'>>): Promise<void> {
  await suite.browser?.close()
  await suite.server?.stop()
  if (suite.db && !borrowed.has(suite.db)) await suite.db.drop()
}

/** An afterEach hook: a full-page capture of the page when the test failed, to see what it saw. */
export function screenshotOnFailure(page: () => Page | undefined, name: string) {
  return async ({ task }: TestContext) => {
    if (task.result?.state === 'fail') await page()?.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true })
  }
}

/** A suite of one page (onePageSuite): its parts, there once the file's beforeAll ran. */
export interface OnePageSuite {
  db: TestDatabase
  server: WebServer
  browser: Browser
  /** one page at 1280 × 900, each step waiting at most 10 s (it fails on the step, inside the test's own timeout) */
  page: Page
  /** A toast on the page, by its exact title. */
  toast(title: string): Locator
  /** Registers `email` through the form, as a person would, signed in on the dashboard afterwards. */
  register(email: string): Promise<void>
}

interface OnePageSuiteOptions extends BrowserSuiteOptions {
  /** stops what the caller started for the suite (a mail environment), after the suite has stopped */
  close?: () => Promise<void>
}

/**
 * The file's hooks for a browser suite of one page (the dashboard suites: undelivered mail, spam
 * handling, blocked senders, bounces): beforeAll starts the suite on the web process's
 * MAIL_DOMAINS=veilmail.test (unless `options` say otherwise; a function gives them then, say with
 * a database of a mail environment it starts) and opens the page, afterEach captures it as
 * `<name>-failure.png` when a test failed, afterAll stops everything. Nothing starts without a
 * browser (the file's tests skip themselves with browserAvailable()).
 */
export function onePageSuite(name: string, options: OnePageSuiteOptions | (() => Promise<OnePageSuiteOptions>) = {}): OnePageSuite {
  const parts: Partial<Omit<BrowserSuite, 'open'>> & { page?: Page } = {}
  let close: (() => Promise<void>) | undefined
  beforeAll(async () => {
    if (!browserAvailable()) return
    const { close: closeOwn, ...given } = typeof options === 'function' ? await options() : options
    close = closeOwn
    const started = await startBrowserSuite({ ...given, env: { MAIL_DOMAINS: 'veilmail.test', ...given.env } })
    Object.assign(parts, started)
    parts.page = await (await started.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    parts.page.setDefaultTimeout(10_000)
  })
  afterEach(screenshotOnFailure(() => parts.page, `${name}-failure.png`))
  afterAll(async () => {
    await closeBrowserSuite(parts)
    await close?.()
  })
  const part = <K extends keyof typeof parts>(key: K): NonNullable<(typeof parts)[K]> => {
    const value = parts[key]
    if (!value) throw new Error(`onePageSuite(${name}): no ${key} before beforeAll`)
    return value
  }
  return {
    get db() { return part('db') },
    get server() { return part('server') },
    get browser() { return part('browser') },
    get page() { return part('page') },
    toast: (title) => part('page').getByTestId('toast').getByText(title, { exact: true }),
    register: (email) => registerThroughForm(part('page'), part('server').url, { sql: part('db').sql, secretKey: TEST_SECRET_KEY }, email),
  }
}
