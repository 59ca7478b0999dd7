// Passkeys in real Chromium: the DevTools virtual authenticator (CDP WebAuthn domain) stands in
// for the device, @simplewebauthn/browser and /server do the ceremonies, the app is served at
// localhost (PUBLIC_URL decides the RP ID; an IP address cannot be one).
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, SCREENSHOTS } from '../../scripts/testing/browser.ts'
import { registerVerified } from '../../scripts/testing/browser-account.ts'
import { closeBrowserSuite, startBrowserSuite, type BrowserSuite } from '../../scripts/testing/browser-suite.ts'
import { systemMailsTo } from '../../scripts/testing/mailbox.ts'
import { authenticatorFor } from '../../scripts/testing/second-factor.ts'
import { TEST_SECRET_KEY } from '../../scripts/testing/test-app.ts'
import type { TestDatabase } from '../../scripts/testing/test-database.ts'
import type { WebServer } from '../../scripts/testing/web-server.ts'

const run = browserAvailable()
let db: TestDatabase
let server: WebServer
let browser: Browser
let open: BrowserSuite['open']

beforeAll(async () => {
  if (!run) return
  ;({ db, server, browser, open } = await startBrowserSuite({ host: 'localhost' }))
})
afterAll(() => closeBrowserSuite({ db, server, browser }))

const password = 'correct horse battery'

/**
 * A platform authenticator with user verification, as a laptop's fingerprint reader is. `touch(false)`
 * stands for a person who has not touched it yet: requests wait (the autofill one included).
 */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return { touch: (enabled: boolean) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }) }
}

const sessionStatus = async (page: Page) => (await page.request.get(`${server.url}/api/auth/session`)).status()
const signOut = async (page: Page) => expect((await page.request.post(`${server.url}/api/auth/logout`)).status()).toBe(200)
const subjects = async (email: string) => (await systemMailsTo({ sql: db.sql, secretKey: TEST_SECRET_KEY }, email)).map((m) => m.subject)

describe.skipIf(!run)('passkeys in Chromium', () => {
  it('registers a passkey, signs in with it after signing out, serves as the second step, and fails once removed', async () => {
    const email = `passkey.${crypto.randomUUID().slice(0, 8)}@example.com`
    const page = await open('/')
    const device = await addVirtualAuthenticator(page)
    await registerVerified(page.request, server.url, db.sql, email, password)

    await page.goto(`${server.url}/settings`)
    await page.getByText('No passkeys yet.').waitFor()
    await page.getByLabel('Passkey name').fill('Laptop')
    await page.getByRole('button', { name: 'Add Passkey' }).click()
    const list = page.getByRole('list', { name: 'Passkeys' })
    await list.getByText('Laptop').waitFor()
    await list.getByText('Not used yet').waitFor()
    await page.getByRole('button', { name: 'Rename Laptop' }).click()
    const renameForm = page.getByRole('form', { name: 'Rename Laptop' })
    await renameForm.getByLabel('New name').fill('Work laptop')
    await renameForm.getByRole('button', { name: 'Save' }).click()
    await list.getByText('Work laptop').waitFor()
    const [stored] = await db.sql`select credential_id, public_key, name from passkeys`
    expect(stored.name).toBe('Work laptop')

    // signed out, the sign-in page's passkey button is a complete sign-in (no second step)
    // (the autofill request the page starts is left waiting untouched; the device is touched before
    // the button asks, as a request made while untouched would wait for good)
    await signOut(page)
    await device.touch(false)
    const autofillAsked = page.waitForResponse((r) => r.url().endsWith('/api/auth/passkey/options'))
    await page.goto(`${server.url}/auth`)
    await autofillAsked
    await page.getByRole('button', { name: 'Continue with a passkey' }).waitFor()
    // the e-mail field asks the browser for the passkeys in its autofill (read here, while the page
    // stays: below, the touched device's pick signs in and leaves the page before it could be read)
    expect(await page.getByRole('form', { name: 'Sign in' }).getByLabel('Email').getAttribute('autocomplete')).toBe('username webauthn')
    expect(await sessionStatus(page)).toBe(401)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'passkey-sign-in-1280.png') })
    const buttonAsked = page.waitForResponse((r) => r.url().endsWith('/api/auth/passkey/options'))
    const signedIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/passkey') && r.request().method() === 'POST')
    await device.touch(true)
    await page.getByRole('button', { name: 'Continue with a passkey' }).click()
    await buttonAsked
    expect((await signedIn).status()).toBe(200)
    await page.waitForURL('**/dashboard')
    expect(await sessionStatus(page)).toBe(200)

    // conditional UI: the sign-in page's e-mail field offers the passkey (the virtual authenticator
    // picks it as a person would pick it from the autofill list) and that signs in
    await signOut(page)
    await page.goto(`${server.url}/auth`)
    await page.waitForURL('**/dashboard')
    expect(await sessionStatus(page)).toBe(200)
    await page.goto(`${server.url}/settings`)
    await list.getByText(`Last used ${new Date().toISOString().slice(0, 10)}`).waitFor()
    await page.screenshot({ path: path.join(SCREENSHOTS, 'passkeys-settings-1280.png'), fullPage: true })

    // with TOTP on, a password sign-in offers the passkey as its second step
    const started = await page.request.post(`${server.url}/api/account/totp`)
    const app = authenticatorFor(((await started.json()) as { otpauthUri: string }).otpauthUri)
    expect((await page.request.post(`${server.url}/api/account/totp/confirm`, { data: { code: app.code() } })).status()).toBe(200)
    await signOut(page)
    await device.touch(false) // the person types the password instead of picking the passkey
    await page.goto(`${server.url}/auth`)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/auth/second-factor')
    expect(await sessionStatus(page)).toBe(401)
    await device.touch(true)
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await page.waitForURL('**/dashboard')
    expect(await sessionStatus(page)).toBe(200)

    // turning the second factor off: a fresh passkey assertion in place of the password, and a code
    await page.goto(`${server.url}/settings`)
    await page.getByRole('button', { name: 'Turn Off' }).click()
    await page.getByLabel('Confirm with a passkey instead of the password').check()
    const offForm = page.getByRole('form', { name: 'Turn off two-factor authentication' })
    expect(await offForm.getByLabel('Password', { exact: true }).count()).toBe(0)
    await offForm.getByLabel('Code from your app or a recovery code').fill(app.code(1))
    await offForm.getByRole('button', { name: 'Turn Off' }).click()
    await page.getByRole('button', { name: 'Set Up Two-Factor Authentication' }).waitFor()
    const [totp] = await db.sql`select count(*)::int as n from user_totp t join users u on u.id = t.user_id where u.email = ${email}`
    expect(totp.n).toBe(0)

    // removed, the passkey the device still holds signs no one in
    await page.goto(`${server.url}/settings`)
    await page.getByRole('button', { name: 'Remove Work laptop' }).click()
    await page.getByText('No passkeys yet.').waitFor()
    await signOut(page)
    await page.goto(`${server.url}/auth`)
    await page.getByText('Passkey Sign-In Failed').first().waitFor() // the autofill pick is refused
    await page.getByRole('button', { name: 'Continue with a passkey' }).click()
    await expect.poll(() => page.getByText('Passkey Sign-In Failed').count()).toBeGreaterThan(1)
    expect(await sessionStatus(page)).toBe(401)

    expect(await subjects(email)).toEqual(expect.arrayContaining(['Veilmail: A passkey was added', 'Veilmail: A passkey was removed']))
  }, 120_000)

  it('refuses a forged assertion, one without a challenge of this browser, and a challenge answered twice', async () => {
    const email = `forged.${crypto.randomUUID().slice(0, 8)}@example.com`
    const page = await open('/')
    await addVirtualAuthenticator(page)
    await registerVerified(page.request, server.url, db.sql, email, password)
    await page.goto(`${server.url}/settings`)
    await page.getByLabel('Passkey name').fill('Phone')
    await page.getByRole('button', { name: 'Add Passkey' }).click()
    await page.getByRole('list', { name: 'Passkeys' }).getByText('Phone').waitFor()
    const [{ credentialId }] = await db.sql`select credential_id from passkeys p join users u on u.id = p.user_id where u.email = ${email}`

    // a real assertion, taken from the browser without sending it (on a page without the sign-in form,
    // whose autofill request would take the passkey first)
    await signOut(page)
    await page.goto(`${server.url}/home`)
    const assertion = await page.evaluate(async (base) => {
      const options = await (await fetch(`${base}/api/auth/passkey/options`, { method: 'POST' })).json()
      const credential = (await navigator.credentials.get({ publicKey: {
        challenge: Uint8Array.from(atob(options.challenge.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0)),
        rpId: options.rpId, userVerification: 'required',
      } })) as PublicKeyCredential
      const r = credential.response as AuthenticatorAssertionResponse
      const b64 = (buf: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
      return { id: credential.id, rawId: b64(credential.rawId), type: 'public-key', clientExtensionResults: {}, response: {
        clientDataJSON: b64(r.clientDataJSON), authenticatorData: b64(r.authenticatorData), signature: b64(r.signature), userHandle: r.userHandle ? b64(r.userHandle) : undefined,
      } }
    }, server.url)
    expect(assertion.id).toBe(credentialId)

    // another browser (no challenge cookie) cannot use it
    const other = await open('/')
    expect((await other.request.post(`${server.url}/api/auth/passkey`, { data: { response: assertion } })).status()).toBe(401)
    // a forged signature over the same challenge is refused (and spends the challenge)
    const forged = { ...assertion, response: { ...assertion.response, signature: assertion.response.signature.slice(0, -4) + 'AAAA' } }
    expect((await page.request.post(`${server.url}/api/auth/passkey`, { data: { response: forged } })).status()).toBe(401)
    // so the real one, sent now, finds its challenge spent
    expect((await page.request.post(`${server.url}/api/auth/passkey`, { data: { response: assertion } })).status()).toBe(401)
    expect(await sessionStatus(page)).toBe(401)
    // hostile shapes are refused before any check
    for (const bad of [{}, { response: 'x' }, { response: { id: 'a'.repeat(5000), rawId: 'a', type: 'public-key', response: {} } }, { response: { ...assertion, type: 'password' } }]) {
      const status = (await page.request.post(`${server.url}/api/auth/passkey`, { data: bad })).status()
      expect([400, 401]).toContain(status)
    }
    // and another Origin is refused on every passkey route
    for (const route of ['/api/auth/passkey/options', '/api/auth/passkey', '/api/account/passkeys/options', '/api/account/passkeys']) {
      expect((await page.request.post(`${server.url}${route}`, { data: {}, headers: { origin: 'https://evil.example' } })).status(), route).toBe(403)
    }
  })
})
