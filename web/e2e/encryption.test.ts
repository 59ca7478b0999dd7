// Encryption keys and decryption in a real browser against the real web process: keys are made,
// downloaded and used in the browser, and no request ever carries a master password or a
// private key. Debian's age CLI checks the results independently. scrypt runs in the age worker
// and can take many seconds on a busy machine: the tests wait for outcomes (toasts, closed
// dialogs, rows), and look at a pending label only while they hold its request themselves.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ageAvailable, ageDecrypt, ageDecryptWithPassphrase, ageEncrypt } from '../../scripts/testing/age-cli.ts'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { closeBrowserSuite, screenshotOnFailure, startBrowserSuite } from '../../scripts/testing/browser-suite.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'
import { AGE_FAILURE_MESSAGES } from '../../shared/age-core.ts'

const run = browserAvailable() && ageAvailable()
const WORK_PASSWORD = 'work master pässword 1'
const BACKUP_PASSWORD = 'backup master password 2'
const MESSAGE = 'Meet at the usual place.\nBring the Grüße 🔐'
const SLOW = 180_000 // scrypt in the browser (twice in some tests), plus the age CLI
const PAGE = 60_000 // tests without scrypt; above the page's default wait of 45 s
const SCRYPT_WAIT = { timeout: 90_000 } // an outcome that comes after scrypt in the worker

let db: TestDatabase
let server: WebServer
let browser: Browser
let context: BrowserContext
let page: Page
/** Every request the browser made, with its body. */
const requests: { method: string; url: string; body: string }[] = []
/** The URLs of the workers the page started. */
const workers: string[] = []
/** Console messages about Content Security Policy violations. */
const cspViolations: string[] = []
/** What the downloaded key file said. */
let keyFile: { keyName: string; publicKey: string; privateKey: string; createdAt: string; isDefault: boolean }

beforeAll(async () => {
  if (!run) return
  ;({ db, server, browser } = await startBrowserSuite())
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'], acceptDownloads: true })
  context.on('request', (request) => requests.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }))
  page = await context.newPage()
  page.setDefaultTimeout(45_000) // a busy machine; scrypt waits use SCRYPT_WAIT
  page.on('worker', (worker) => workers.push(worker.url()))
  page.on('console', (message) => /content security policy/i.test(message.text()) && cspViolations.push(message.text()))
  await registerVerified(context.request, server.url, db.sql, `keys.${crypto.randomUUID().slice(0, 8)}@example.com`)
})
afterEach(screenshotOnFailure(() => page, 'encryption-failure.png'))
afterAll(() => closeBrowserSuite({ db, server, browser }))

const toast = (title: string) => page.getByTestId('toast').getByText(title, { exact: true })
const toastText = (text: string) => page.getByTestId('toast').getByText(text)
/** The toast with this title and a description containing `text`. */
const toastWith = (title: string, text: string) =>
  page.getByTestId('toast').filter({ has: page.getByText(title, { exact: true }) }).filter({ hasText: text })
const keyCard = (name: string): Locator => page.locator(`[data-testid="encryption-key"][data-key-name="${name}"]`)
const screenshot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true })
const defaultKeys = () => page.locator('[data-testid="encryption-key"]:has([data-testid="default-badge"])')

/**
 * Holds the page's `method` requests to `url` until release(), so the state the UI shows while
 * it waits for them (a pending label) stays up until the test has seen it.
 */
async function holdRequests(url: string, method: string) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const passing: Promise<void>[] = []
  const handler = (route: Route) => {
    if (route.request().method() !== method) return route.fallback()
    const passed = released.then(() => route.continue())
    passing.push(passed)
    return passed
  }
  await page.route(url, handler)
  return {
    /** Lets the held requests go on, then stops holding. */
    async stop() {
      release()
      await Promise.all(passing)
      await page.unroute(url, handler)
    },
  }
}

const keyRows = async (name: string) => (await db.sql<{ n: number }[]>`select count(*)::int as n from encryption_keys where key_name = ${name}`)[0].n

async function createKey(name: string, password: string) {
  await page.getByRole('button', { name: 'Create New Key' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create New Encryption Key' })
  await dialog.getByLabel('Key Name').fill(name)
  await dialog.getByLabel('Master Password').fill(password)
  // the upload follows scrypt; held, it keeps "Creating..." up until seen
  const upload = await holdRequests('**/api/encryption-keys', 'POST')
  try {
    await dialog.getByRole('button', { name: 'Create Key' }).click()
    await dialog.getByRole('button', { name: 'Creating...' }).waitFor()
    expect(await dialog.getByLabel('Master Password').isDisabled()).toBe(true)
  } finally {
    await upload.stop()
  }
  await toastWith('Encryption key created', `"${name}" is ready`).waitFor(SCRYPT_WAIT)
  await dialog.waitFor({ state: 'detached' })
  await keyCard(name).waitFor()
  expect(await keyRows(name)).toBe(1)
}

describe.skipIf(!run)('encryption keys in the browser', () => {
  it('shows the empty Settings page and refuses a nameless or passwordless key', async () => {
    // hold the list until "Loading keys..." has been seen
    const list = await holdRequests('**/api/encryption-keys', 'GET')
    const response = await page.goto(server.url + '/settings')
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    await page.getByText('Loading keys...').waitFor()
    await list.stop()
    await page.getByText('No encryption keys', { exact: true }).waitFor()
    // The age worker is a same-origin script: script-src 'self' covers it (worker-src falls back
    // to it), with no blob: or eval allowed.
    const csp = Object.fromEntries(
      (await response!.headerValue('content-security-policy'))!.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
    )
    expect(csp['script-src']).toEqual(["'self'"])
    expect(csp['worker-src']).toBeUndefined()
    await page.getByText('Create your first encryption key to start receiving encrypted emails').waitFor()
    await screenshot('settings-empty-1280.png')

    await page.getByRole('button', { name: 'Create New Key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create New Encryption Key' })
    await dialog.getByLabel('Key Name').fill('   ')
    await dialog.getByRole('button', { name: 'Create Key' }).click()
    await toast('Key name required').waitFor()
    await toastText('Please provide a name for your encryption key.').waitFor()
    await dialog.getByLabel('Key Name').fill('Work')
    await dialog.getByLabel('Master Password').fill('   ')
    await dialog.getByRole('button', { name: 'Create Key' }).click()
    await toast('Master password required').waitFor()
    await toastText('Please provide a master password to protect your private key.').waitFor()
    // show/hide
    const password = dialog.getByLabel('Master Password')
    expect(await password.getAttribute('type')).toBe('password')
    await dialog.getByRole('button', { name: 'Show password' }).click()
    expect(await password.getAttribute('type')).toBe('text')
    await dialog.getByRole('button', { name: 'Hide password' }).click()
    expect(await password.getAttribute('type')).toBe('password')
    // A guessable master password is refused before any key is made, with the meter's verdict.
    await password.fill('pw')
    const meter = dialog.getByTestId('password-strength')
    await expect.poll(() => meter.innerText()).toMatch(/^Strength: Very weak/)
    await dialog.getByRole('button', { name: 'Create Key' }).click()
    await toast('Master password too weak').waitFor()
    await dialog.getByRole('alert').getByText('This master password is very weak. Use at least 12 characters, or a stronger password.').waitFor()
    expect(await password.getAttribute('aria-invalid')).toBe('true')
    await password.fill('password1')
    await expect.poll(() => meter.innerText()).toBe('Strength: Very weak · This is a commonly used password.')
    await screenshot('settings-weak-master-password-1280.png')
    await password.fill('kj8#Lq2!')
    await expect.poll(() => meter.innerText()).toBe('Strength: Fair')
    expect(await dialog.getByRole('alert').count()).toBe(0)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/encryption-keys'))).toHaveLength(0)
  }, PAGE)

  it('creates keys in the browser and uploads only the public key and the locked private key', async () => {
    await createKey('Work', WORK_PASSWORD)
    expect(await keyCard('Work').getByTestId('default-badge').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Create New Key' }).click()
    await screenshot('settings-create-dialog-1280.png')
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
    await createKey('Backup', BACKUP_PASSWORD)
    expect(await keyCard('Backup').getByTestId('default-badge').count()).toBe(0)
    expect(await page.locator('[data-testid="encryption-key"]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-key-name')))).toEqual(['Backup', 'Work'])

    const posts = requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/encryption-keys'))
    expect(posts).toHaveLength(2)
    for (const post of posts) {
      const body = JSON.parse(post.body)
      expect(Object.keys(body).sort()).toEqual(['encryptedPrivateKey', 'keyName', 'publicKey'])
      expect(body.encryptedPrivateKey).toMatch(/^-----BEGIN AGE ENCRYPTED FILE-----\n/)
    }
    // The stored file opens with age and the master password, and holds the card's public key.
    const [work] = await db.sql<{ publicKey: string; encryptedPrivateKey: string }[]>`select public_key, encrypted_private_key from encryption_keys where key_name = 'Work'`
    const identityFile = await ageDecryptWithPassphrase(work.encryptedPrivateKey, WORK_PASSWORD)
    expect(identityFile).toContain(`# public key: ${work.publicKey}\n`)
    expect(await ageDecrypt(await ageEncrypt(MESSAGE, work.publicKey), identityFile)).toBe(MESSAGE)
    // scrypt ran in the age worker, loaded from our own origin under the CSP
    expect(workers.map((url) => new URL(url)).filter((url) => url.origin === server.url && /^\/assets\/age-worker-[\w-]+\.js$/.test(url.pathname))).toHaveLength(1)
    await screenshot('settings-keys-1280.png')
  }, SLOW)

  it('copies the public key and moves the default', async () => {
    const publicKey = (await keyCard('Work').getByTestId('public-key').innerText()).trim()
    await keyCard('Work').getByTestId('public-key').click()
    await toast('Copied').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicKey)
    // the button copies its own card's key, not the one above (which the clipboard holds already)
    const backupKey = (await keyCard('Backup').getByTestId('public-key').innerText()).trim()
    expect(backupKey).toMatch(/^age1[02-9ac-hj-np-z]{58}$/)
    expect(backupKey).not.toBe(publicKey)
    await keyCard('Backup').getByRole('button', { name: 'Copy Public Key' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(backupKey)

    await keyCard('Backup').getByRole('button', { name: 'Make Default' }).click()
    await keyCard('Backup').getByTestId('default-badge').waitFor()
    await expect.poll(() => defaultKeys().count()).toBe(1)
  }, PAGE)

  it('downloads a key file decrypted in the browser, after refusing a wrong master password', async () => {
    await keyCard('Work').getByRole('button', { name: 'Download' }).click()
    const dialog = page.getByRole('dialog', { name: 'Download Encryption Keys' })
    await dialog.getByRole('button', { name: 'Download Keys' }).click()
    await toast('Password required').waitFor()
    await toastText('Please enter your master password to download the keys.').waitFor()
    await dialog.getByLabel('Master Password').fill('not the password')
    // the locked key is fetched before scrypt; held, it keeps "Downloading..." up until seen
    const material = await holdRequests('**/api/encryption-keys/*/encrypted-private-key', 'GET')
    try {
      await dialog.getByRole('button', { name: 'Download Keys' }).click()
      await dialog.getByRole('button', { name: 'Downloading...' }).waitFor()
    } finally {
      await material.stop()
    }
    await toastWith('Download failed', AGE_FAILURE_MESSAGES['wrong-password']).waitFor(SCRYPT_WAIT)

    await dialog.getByLabel('Master Password').fill(WORK_PASSWORD)
    const [download] = await Promise.all([page.waitForEvent('download', SCRYPT_WAIT), dialog.getByRole('button', { name: 'Download Keys' }).click()])
    expect(download.suggestedFilename()).toBe('Work-encryption-keys.json')
    const text = readFileSync((await download.path())!, 'utf8')
    keyFile = JSON.parse(text)
    expect(text).toBe(JSON.stringify(keyFile, null, 2))
    expect(Object.keys(keyFile)).toEqual(['keyName', 'publicKey', 'privateKey', 'createdAt', 'isDefault'])
    expect(keyFile).toMatchObject({ keyName: 'Work', isDefault: false })
    expect(keyFile.privateKey).toMatch(/^AGE-SECRET-KEY-1[0-9A-Z]{58}$/)
    await toast('Keys downloaded').waitFor()
    await dialog.waitFor({ state: 'detached' })

    // the file's key opens what the age CLI encrypts to the file's public key
    expect(await ageDecrypt(await ageEncrypt(MESSAGE, keyFile.publicKey), `${keyFile.privateKey}\n`)).toBe(MESSAGE)
  }, SLOW)

  it('decrypts with a saved key and its master password, in the browser', async () => {
    const ciphertext = await ageEncrypt(MESSAGE, keyFile.publicKey)
    await page.goto(server.url + '/decrypt')
    await page.getByRole('heading', { name: 'Decrypt Messages' }).waitFor()
    await page.getByText('Enter encrypted text and decrypt to see results').waitFor()
    const form = page.getByRole('form', { name: 'Auto decrypt' })
    // the default key is preselected; pick Work
    expect(await form.getByLabel('Decryption Key').locator('option:checked').innerText()).toMatch(/^Backup/)
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await form.getByText('Encrypted text is required').waitFor()
    await form.getByText('Master password is required').waitFor()

    await form.getByLabel('Decryption Key').selectOption({ label: (await form.getByLabel('Decryption Key').locator('option', { hasText: 'Work' }).innerText()).trim() })
    await form.getByLabel('Master Password').fill('wrong again')
    await form.getByLabel('Encrypted Message').fill(ciphertext)
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await toastWith('Decryption failed', AGE_FAILURE_MESSAGES['wrong-password']).waitFor(SCRYPT_WAIT)

    await form.getByLabel('Master Password').fill(WORK_PASSWORD)
    // held, the locked key's request keeps "Decrypting..." up until seen
    const material = await holdRequests('**/api/encryption-keys/*/encrypted-private-key', 'GET')
    try {
      await form.getByRole('button', { name: 'Decrypt Message' }).click()
      await form.getByRole('button', { name: 'Decrypting...' }).waitFor()
    } finally {
      await material.stop()
    }
    await page.getByText('Successfully decrypted').waitFor(SCRYPT_WAIT)
    await toast('Decryption successful').waitFor()
    expect(await page.getByLabel('Decrypted text').inputValue()).toBe(MESSAGE)
    await screenshot('decrypt-auto-1280.png')

    await page.getByRole('button', { name: 'Copy decrypted message' }).click()
    await toast('Copied to clipboard').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MESSAGE)
    await page.getByRole('button', { name: 'Clear Results' }).click()
    await page.getByText('Enter encrypted text and decrypt to see results').waitFor()
  }, SLOW)

  it('decrypts with a pasted private key, and names what went wrong', async () => {
    const ciphertext = await ageEncrypt(MESSAGE, keyFile.publicKey)
    await page.getByRole('tab', { name: 'Manual Decrypt' }).click()
    const form = page.getByRole('form', { name: 'Manual decrypt' })
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await form.getByText('Private key is required').waitFor()
    await form.getByText('Encrypted text is required').waitFor()

    await form.getByLabel('Private Key').fill(keyFile.privateKey)
    await form.getByLabel('Encrypted Message').fill(ciphertext.split('\n').slice(0, -3).join('\n'))
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await toastText(AGE_FAILURE_MESSAGES.damaged).waitFor()
    await form.getByLabel('Encrypted Message').fill('just some words')
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await toastText(AGE_FAILURE_MESSAGES.malformed).waitFor()
    await form.getByLabel('Encrypted Message').fill(await ageEncrypt(MESSAGE, 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p'))
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await toastText(AGE_FAILURE_MESSAGES['wrong-key']).waitFor()

    // the whole downloaded key file works as the private key too
    await form.getByLabel('Private Key').fill(JSON.stringify(keyFile, null, 2))
    await form.getByLabel('Encrypted Message').fill(ciphertext)
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await page.getByText('Successfully decrypted').waitFor()
    await toast('Decryption successful').waitFor()
    expect(await page.getByLabel('Decrypted text').inputValue()).toBe(MESSAGE)
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot('decrypt-manual-390.png')
    await page.setViewportSize({ width: 1280, height: 900 })
  }, SLOW)

  it('deletes keys, promoting the newest remaining key, down to the empty states', async () => {
    await page.goto(server.url + '/settings')
    await keyCard('Backup').waitFor()
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot('settings-keys-390.png')
    await page.setViewportSize({ width: 1280, height: 900 })

    await keyCard('Backup').getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete Encryption Key' })
    await dialog.getByText('Download your keys first').waitFor()
    await dialog.getByRole('button', { name: 'Delete Key' }).click()
    await toast('Key deleted').waitFor()
    await keyCard('Backup').waitFor({ state: 'detached' })
    await keyCard('Work').getByTestId('default-badge').waitFor()

    await keyCard('Work').getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('dialog', { name: 'Delete Encryption Key' }).getByRole('button', { name: 'Delete Key' }).click()
    await page.getByText('No encryption keys', { exact: true }).waitFor()

    await page.goto(server.url + '/decrypt')
    await page.getByText('No Encryption Keys Available').waitFor()
    await page.getByRole('link', { name: 'Go to Settings' }).waitFor()
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot('decrypt-no-keys-390.png')
    await page.setViewportSize({ width: 1280, height: 900 })
  }, SLOW)

  it('says when a saved key is in an older format', async () => {
    const [user] = await db.sql<{ id: string }[]>`select id from users where email like 'keys.%'`
    await db.sql`insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name, is_default)
      values (${user.id}, ${keyFile.publicKey}, 'U2FsdGVkX1+an-old-aes-blob', 'Legacy', true)`
    await page.goto(server.url + '/decrypt')
    const form = page.getByRole('form', { name: 'Auto decrypt' })
    await form.getByLabel('Master Password').fill(WORK_PASSWORD)
    await form.getByLabel('Encrypted Message').fill(await ageEncrypt(MESSAGE, keyFile.publicKey))
    await form.getByRole('button', { name: 'Decrypt Message' }).click()
    await toast('Encryption key needs update').waitFor()
    await toastText('This key was created with an older method. Please delete it and create a new one in Settings.').waitFor()
    await page.getByText('Enter encrypted text and decrypt to see results').waitFor()
  }, PAGE)

  it('never sent a master password or a private key, and never asked the server to decrypt', async () => {
    const secrets = [WORK_PASSWORD, BACKUP_PASSWORD, 'not the password', 'wrong again', keyFile.privateKey, 'AGE-SECRET-KEY-']
    expect(requests.length).toBeGreaterThan(10)
    for (const r of requests) {
      for (const secret of secrets) {
        expect(`${r.method} ${r.url} ${r.body}`.includes(secret), `${r.method} ${r.url} carries a secret`).toBe(false)
        expect(decodeURIComponent(r.url).includes(secret)).toBe(false)
      }
    }
    const apiCalls = requests.filter((r) => new URL(r.url).pathname.startsWith('/api/')).map((r) => `${r.method} ${new URL(r.url).pathname.replace(/[0-9a-f-]{36}/g, ':id')}`)
    expect(apiCalls).toContain('GET /api/encryption-keys/:id/encrypted-private-key')
    expect(apiCalls).not.toContain('POST /api/encryption-keys/:id/download')
    expect(apiCalls).not.toContain('POST /api/decrypt-auto')
    expect(apiCalls).not.toContain('POST /api/decrypt-manual')
    expect(cspViolations).toEqual([])
  })
})
