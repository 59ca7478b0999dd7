// Signing in and out in a real browser against the real web process.
import { generateKeyPairSync, sign } from 'node:crypto'
import path from 'node:path'
import bs58 from 'bs58'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, startBrowserSuite, type BrowserSuite } from '../../scripts/testing/browser-suite.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import { latestLink } from '../../scripts/testing/mailbox.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'
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

const toast = (page: Page) => page.getByTestId('toast')

describe.skipIf(!run)('auth in the browser', () => {
  it('registers, shows the pending state with Resend, follows the mailed link to the dashboard, logs out and logs back in', async () => {
    const email = `Browser.${crypto.randomUUID().slice(0, 8)}@example.com`
    const page = await open('/register')
    await page.getByRole('heading', { name: 'Create Account' }).waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('correct horse')
    await page.getByLabel('Confirm Password').fill('correct horse')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.waitForURL('**/check-email')
    await toast(page).getByText('Check Your Email', { exact: true }).waitFor()
    await page.getByRole('heading', { name: 'Check Your Inbox' }).waitFor()
    expect(await page.getByTestId('pending-email').innerText()).toBe(email.toLowerCase())
    await page.getByRole('button', { name: 'Resend Verification Email' }).click()
    await toast(page).getByText('Verification Email Sent').waitFor()
    await page.screenshot({ path: path.join(SCREENSHOTS, 'verify-pending-1280.png') })
    // nothing is usable yet: the dashboard shows the same pending state after a password sign-in
    const early = await open('/auth')
    await early.getByLabel('Email').fill(email)
    await early.getByLabel('Password').fill('correct horse')
    await early.getByRole('button', { name: 'Sign In' }).click()
    await early.getByTestId('pending-verification').waitFor()
    expect(await early.getByRole('heading', { name: 'Email Forwarding' }).count()).toBe(0)
    await early.close()

    const mails = await db.sql`select count(*)::int as n from email_jobs where source = 'system' and recipient_email = ${email.toLowerCase()}`
    expect(mails[0].n).toBe(2) // the first link and the resent one
    await page.goto(await latestLink({ sql: db.sql, secretKey: TEST_SECRET_KEY }, email, '/verify-email'))
    await page.waitForURL('**/dashboard')
    await page.getByRole('heading', { name: 'Email Forwarding' }).waitFor()
    await toast(page).getByText('Email Verified').waitFor()
    expect(await page.getByTestId('user-label').innerText()).toBe(email.split('@')[0].toLowerCase())
    expect(await page.getByTestId('auth-method').getAttribute('data-method')).toBe('email')
    expect(await page.getByTestId('balance').count()).toBe(0) // balance 0.00 shows no badge
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-1280.png') })

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL('**/home')
    await toast(page).getByText('Logged Out', { exact: true }).waitFor()
    expect(await page.getByRole('link', { name: '_SIGN IN' }).isVisible()).toBe(true)

    await page.getByRole('link', { name: '_SIGN IN' }).click()
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('correct horse')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/dashboard')
    await toast(page).getByText('Login Successful').waitFor()
    await page.getByRole('heading', { name: 'Email Forwarding' }).waitFor()
    await page.close()
  })

  it('forgot password → mailed link → new password → signs in with it, and the other session ended', async () => {
    const email = `reset.${crypto.randomUUID().slice(0, 8)}@example.com`
    const other = await open('/register')
    await other.getByLabel('Email').fill(email)
    await other.getByLabel('Password', { exact: true }).fill('old password')
    await other.getByLabel('Confirm Password').fill('old password')
    await other.getByRole('button', { name: 'Create Account' }).click()
    await other.waitForURL('**/check-email')
    await other.goto(await latestLink({ sql: db.sql, secretKey: TEST_SECRET_KEY }, email, '/verify-email'))
    await other.waitForURL('**/dashboard')

    const page = await open('/auth', 390)
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.waitForURL('**/forgot-password')
    // the page is a chunk of its own: the sign-in form stays on screen until it has loaded
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await page.getByTestId('reset-requested').waitFor()
    await page.goto(await latestLink({ sql: db.sql, secretKey: TEST_SECRET_KEY }, email, '/reset-password'))
    await page.getByRole('heading', { name: 'Choose a New Password' }).waitFor()
    await page.getByLabel('New Password').fill('new password 123')
    await page.getByLabel('Confirm Password').fill('new password 12')
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await page.getByText('Passwords do not match').waitFor()
    await page.getByLabel('Confirm Password').fill('new password 123')
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reset-password-390.png') })
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await page.waitForURL('**/auth')
    await toast(page).getByText('Password Changed').waitFor()

    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('old password')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await toast(page).getByText('Invalid email or password').waitFor()
    await page.getByLabel('Password').fill('new password 123')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('heading', { name: 'Email Forwarding' }).waitFor()

    // the browser that was signed in before the reset is signed out
    await other.reload()
    await other.getByRole('heading', { name: 'Welcome Back' }).waitFor()
    await page.close()
    await other.close()
  })

  it('says so when the password is wrong', async () => {
    const page = await open('/auth')
    await page.getByLabel('Email').fill('nobody@example.com')
    await page.getByLabel('Password').fill('wrong password')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await toast(page).getByText('Login Failed', { exact: true }).waitFor()
    await toast(page).getByText('Invalid email or password').waitFor()
    expect(page.url()).toMatch(/\/auth$/)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'auth-wrong-password-390.png') })
    await page.close()
  })

  it('refuses mismatched and short passwords before calling the server', async () => {
    const page = await open('/register', 390)
    await page.getByLabel('Email').fill('mismatch@example.com')
    await page.getByLabel('Password', { exact: true }).fill('correct horse')
    await page.getByLabel('Confirm Password').fill('correct hors')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await toast(page).getByText('Password Mismatch').waitFor()
    expect(await page.getByText('Passwords do not match').first().isVisible()).toBe(true)
    await page.getByLabel('Password', { exact: true }).fill('short')
    await page.getByLabel('Confirm Password').fill('short')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await toast(page).getByText('Password Too Short').waitFor()
    await page.screenshot({ path: path.join(SCREENSHOTS, 'register-mismatch-390.png') })
    const [{ count }] = await db.sql`select count(*)::int as count from users where email = 'mismatch@example.com'`
    expect(count).toBe(0)
    await page.close()
  })

  it('signs in with an injected Solana wallet that really signs', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519')
    const address = bs58.encode(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'))
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.exposeFunction('__testWalletSign', (bytes: number[]) => [...sign(null, Buffer.from(bytes), privateKey)])
    await page.addInitScript((addr) => {
      const w = window as unknown as Record<string, unknown>
      w.solana = {
        isPhantom: true,
        publicKey: { toString: () => addr },
        connect: async () => ({ publicKey: { toString: () => addr } }),
        signMessage: async (message: Uint8Array) => ({ signature: new Uint8Array(await (w.__testWalletSign as (b: number[]) => Promise<number[]>)([...message])) }),
      }
    }, address)
    await page.goto(server.url + '/auth')
    await page.getByRole('button', { name: 'Continue with Solana Wallet' }).click()
    await page.waitForURL('**/dashboard')
    await toast(page).getByText('Wallet Connected').waitFor()
    expect(await page.getByTestId('user-label').innerText()).toBe(`${address.slice(0, 6)}...${address.slice(-6)}`)
    expect(await page.getByTestId('auth-method').getAttribute('data-method')).toBe('wallet')
    const [user] = await db.sql`select auth_method from users where wallet_address = ${address}`
    expect(user.authMethod).toBe('wallet')
    await page.close()
  })

  it('explains when no wallet is installed', async () => {
    const page = await open('/auth')
    await page.getByRole('button', { name: 'Continue with Solana Wallet' }).click()
    await page.getByText('Solana wallet not found. Please install Phantom or another Solana wallet.').first().waitFor()
    await page.close()
  })
})
