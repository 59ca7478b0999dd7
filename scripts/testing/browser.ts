// Headless Debian Chromium driven by playwright-core. Outside CI a missing browser skips the
// browser suites with a line naming the package; with CI=true it is a failure.
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const SCREENSHOTS = path.join(import.meta.dirname, '..', '..', 'test-results')

/** True when the browser suites can run; throws in CI when they cannot. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: apt-get install chromium`)
  console.warn(`skipping browser tests: ${CHROMIUM} not found (Debian package: chromium)`)
  return false
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  })
}
