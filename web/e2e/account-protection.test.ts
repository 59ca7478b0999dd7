// Two-factor authentication, recovery codes and sessions in a real browser against the real web
// process: the QR code on the page is read back (jsQR) and an independent TOTP implementation
// (otpauth) plays the authenticator app.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import jsQR from 'jsqr'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'
import { closeBrowserSuite, startBrowserSuite, type BrowserSuite } from '../../scripts/testing/browser-suite.ts'
import { authenticatorFor, type Authenticator } from '../../scripts/testing/second-factor.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
let db: TestDatabase
let server: WebServer
let browser: Browser
let open: BrowserSuite['open']

beforeAll(async () => {
  if (!run) return
  ;({ db, server, browser, open } = await startBrowserSuite())
})
afterAll(() => closeBrowserSuite({ db, server, browser }))

const password = 'correct horse battery'

/** The text the QR code image on the page encodes, read from its pixels. */
async function readQr(page: Page): Promise<string> {
  const img = page.getByAltText('QR code for your authenticator app')
  await img.waitFor()
  const { data, width, height } = await img.evaluate(async (el: HTMLImageElement) => {
    await el.decode()
    const canvas = document.createElement('canvas')
    canvas.width = el.naturalWidth
    canvas.height = el.naturalHeight
    const ctx = canvas.getContext('2d')!
    ctx.drawImage(el, 0, 0)
    const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height)
    return { data: Array.from(pixels.data), width: pixels.width, height: pixels.height }
  })
  const found = jsQR(Uint8ClampedArray.from(data), width, height)
  if (!found) throw new Error('no QR code in the image')
  return found.data
}

async function signInWithPassword(email: string): Promise<Page> {
  const page = await open('/auth')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  return page
}

const sessionStatus = async (page: Page) => (await page.request.get(`${server.url}/api/auth/session`)).status()

describe.skipIf(!run)('account protection in the browser', () => {
  let email: string
  let owner: Page
  let authenticator: Authenticator
  let recoveryCodes: string[]

  it('enrols: the QR code carries the otpauth:// URI of the secret shown as text; a code from it turns 2FA on and shows 10 recovery codes to download', async () => {
    email = `twofa.${crypto.randomUUID().slice(0, 8)}@example.com`
    owner = await open('/')
    await registerVerified(owner.request, server.url, db.sql, email, password)
    const elsewhere = await signInWithPassword(email)
    await elsewhere.waitForURL('**/dashboard')

    await owner.goto(`${server.url}/settings`)
    await owner.getByRole('heading', { name: 'Security' }).waitFor()
    await owner.getByRole('button', { name: 'Set Up Two-Factor Authentication' }).click()
    const uri = await readQr(owner)
    const secret = await owner.getByLabel('Secret key').innerText()
    expect(uri).toMatch(/^otpauth:\/\/totp\/Veilmail:/)
    expect(new URL(uri).searchParams.get('secret')).toBe(secret)
    expect(decodeURIComponent(new URL(uri).pathname)).toBe(`/Veilmail:${email}`)
    await owner.screenshot({ path: path.join(SCREENSHOTS, 'two-factor-enrol-1280.png'), fullPage: true })
    authenticator = authenticatorFor(uri)

    await owner.getByLabel('Code from your app').fill('000000' === authenticator.code() ? '111111' : '000000')
    await owner.getByRole('button', { name: 'Turn On' }).click()
    await owner.getByText('Code Not Accepted').first().waitFor()

    await owner.getByLabel('Code from your app').fill(authenticator.code())
    await owner.getByRole('button', { name: 'Turn On' }).click()
    const list = owner.getByRole('list', { name: 'Recovery codes' })
    await list.waitFor()
    recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim())
    expect(recoveryCodes).toHaveLength(10)
    const download = owner.waitForEvent('download')
    await owner.getByRole('button', { name: 'Download as a text file' }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe('veilmail-recovery-codes.txt')
    const text = await readFile((await file.path())!, 'utf8')
    for (const code of recoveryCodes) expect(text).toContain(code)
    await owner.screenshot({ path: path.join(SCREENSHOTS, 'two-factor-recovery-codes-1280.png'), fullPage: true })
    await owner.getByRole('button', { name: 'I have saved them' }).click()
    await owner.getByText('10 of 10 recovery codes left').waitFor()

    // turning it on signed the other browser out, not this one
    expect(await sessionStatus(elsewhere)).toBe(401)
    expect(await sessionStatus(owner)).toBe(200)
    await elsewhere.close()
  })

  it('asks for the second step after the password; a code from the app signs in, and a recovery code works once', async () => {
    const page = await signInWithPassword(email)
    await page.waitForURL('**/auth/second-factor')
    await page.getByRole('heading', { name: 'Two-Factor Authentication' }).waitFor()
    expect(await sessionStatus(page)).toBe(401)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'two-factor-second-step-1280.png') })
    await page.getByLabel('Authentication code').fill(authenticator.code(1))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL('**/dashboard')
    expect(await sessionStatus(page)).toBe(200)

    const withRecovery = await signInWithPassword(email)
    await withRecovery.waitForURL('**/auth/second-factor')
    await withRecovery.getByRole('button', { name: 'Use a recovery code' }).click()
    await withRecovery.getByLabel('Recovery code').fill(recoveryCodes[0])
    await withRecovery.getByRole('button', { name: 'Verify' }).click()
    await withRecovery.waitForURL('**/dashboard')

    const again = await signInWithPassword(email)
    await again.waitForURL('**/auth/second-factor')
    await again.getByRole('button', { name: 'Use a recovery code' }).click()
    await again.getByLabel('Recovery code').fill(recoveryCodes[0])
    await again.getByRole('button', { name: 'Verify' }).click()
    await again.getByText('That code is not right, or it was used already').first().waitFor()
    expect(await sessionStatus(again)).toBe(401)
    await again.close()

    // a browser that never passed the first step has nothing to complete
    const stranger = await open('/auth/second-factor')
    await stranger.getByRole('heading', { name: 'Sign-In Expired' }).waitFor()
    await stranger.close()

    await owner.reload()
    await owner.getByText('9 of 10 recovery codes left').waitFor()
    await page.close()
    await withRecovery.close()
  })

  it("lists where the account is signed in and ends another browser's session, then every other one", async () => {
    // the browsers of the tests before are still signed in: they are ended first
    await owner.goto(`${server.url}/settings`)
    const sessions = owner.getByRole('list', { name: 'Sessions' })
    const rows = sessions.getByRole('listitem')
    await expect.poll(() => rows.count()).toBe(3)
    await owner.getByRole('button', { name: 'Sign Out Everywhere Else' }).click()
    await expect.poll(() => rows.count()).toBe(1)

    // codes from the app were spent for this step by the test before: recovery codes sign these two in
    const signInWithRecoveryCode = async (code: string) => {
      const page = await signInWithPassword(email)
      await page.waitForURL('**/auth/second-factor')
      await page.getByRole('button', { name: 'Use a recovery code' }).click()
      await page.getByLabel('Recovery code').fill(code)
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.waitForURL('**/dashboard')
      return page
    }
    const other = await signInWithRecoveryCode(recoveryCodes[3])
    const third = await signInWithRecoveryCode(recoveryCodes[1])

    await owner.reload()
    await sessions.waitFor()
    await expect.poll(() => rows.count()).toBe(3)
    expect(await rows.filter({ hasText: 'This device' }).count()).toBe(1)
    expect(await rows.first().innerText()).toMatch(/Chrome on Linux/)
    const today = new Date().toISOString().slice(0, 10)
    expect(await rows.filter({ hasText: 'This device' }).innerText()).toContain(`Last active ${today}`)
    await owner.screenshot({ path: path.join(SCREENSHOTS, 'sessions-1280.png'), fullPage: true })

    const row = rows.filter({ hasNot: owner.getByText('This device') }).first()
    await row.getByRole('button', { name: /^Sign out/ }).click()
    await expect.poll(() => rows.count()).toBe(2)
    const ended = [await sessionStatus(other), await sessionStatus(third)]
    expect(ended.sort()).toEqual([200, 401])

    await owner.getByRole('button', { name: 'Sign Out Everywhere Else' }).click()
    await expect.poll(() => rows.count()).toBe(1)
    expect(await sessionStatus(other)).toBe(401)
    expect(await sessionStatus(third)).toBe(401)
    expect(await sessionStatus(owner)).toBe(200)
  })

  it('turns it off with the password and a code', async () => {
    await owner.goto(`${server.url}/settings`)
    await owner.getByRole('button', { name: 'Turn Off' }).click()
    await owner.getByRole('form', { name: 'Turn off two-factor authentication' }).getByLabel('Password', { exact: true }).fill(password)
    await owner.getByLabel('Code from your app or a recovery code').fill(recoveryCodes[2])
    await owner.getByRole('button', { name: 'Turn Off' }).click()
    await owner.getByRole('button', { name: 'Set Up Two-Factor Authentication' }).waitFor()
    const page = await signInWithPassword(email)
    await page.waitForURL('**/dashboard')
  })

  it('changes the password, which signs out the other browser and keeps this one', async () => {
    const other = await signInWithPassword(email)
    await other.waitForURL('**/dashboard')
    await owner.goto(`${server.url}/settings`)
    const form = owner.getByRole('form', { name: 'Change password' })
    await form.getByLabel('Current Password').fill('not my password')
    await form.getByLabel('New Password', { exact: true }).fill('a better password')
    await form.getByLabel('Confirm New Password').fill('a better password')
    await form.getByRole('button', { name: 'Change Password' }).click()
    await form.getByText('Wrong password').waitFor()
    expect(await sessionStatus(other)).toBe(200)
    await form.getByLabel('Current Password').fill(password)
    await form.getByRole('button', { name: 'Change Password' }).click()
    await owner.getByText('Password Changed').first().waitFor()
    expect(await sessionStatus(other)).toBe(401)
    expect(await sessionStatus(owner)).toBe(200)
    await owner.screenshot({ path: path.join(SCREENSHOTS, 'change-password-1280.png'), fullPage: true })
  })
})
