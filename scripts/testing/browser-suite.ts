// What a browser test file runs against: a database of its own, the real web process on it and
// Chromium, started in its beforeAll and stopped in its afterAll (browser first, database last).
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { TestContext } from 'vitest'
import { launchBrowser, SCREENSHOTS } from './browser.ts'
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
