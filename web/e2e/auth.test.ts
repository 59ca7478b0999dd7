// Signing in and out in a real browser against the real web process.
import { generateKeyPairSync, sign } from 'node:crypto'
import path from 'node:path'
import bs58 from 'bs58'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, launchBrowser, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { createTestDatabase, type TestDatabase } from '../../scripts/testing/test-database.ts'
import { startWebServer, type WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
let db: TestDatabase
let server: WebServer
let browser: Browser

beforeAll(async () => {
  if (!run) return
  db = await createTestDatabase()
  server = await startWebServer(db.url)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await db?.drop()
})

async function open(route: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  await page.goto(server.url + route)
  return page
}

const toast = (page: Page) => page.getByTestId('toast')

describe.skipIf(!run)('auth in the browser', () => {
  it('registers, lands on the dashboard, logs out and logs back in', async () => {
    const email = `Browser.${crypto.randomUUID().slice(0, 8)}@example.com`
    const page = await open('/register')
    await page.getByRole('heading', { name: 'Create Account' }).waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('correct horse')
    await page.getByLabel('Confirm Password').fill('correct horse')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('heading', { name: 'Email Forwarding' }).waitFor()
    await toast(page).getByText('Registration Successful').waitFor()
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
    await page.close()
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
