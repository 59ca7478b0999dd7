import { describe, expect, it } from 'vitest'
import { ImapCredentialsSchema } from '../../../../shared/email-provider-schemas.ts'
import * as v from 'valibot'
import { checkAccountForm, createProviderRequest, editAccountForm, EMPTY_ACCOUNT_FORM, parsePort, selectProvider, selectSecurity, updateProviderRequest, type AccountForm } from './account-form.ts'

const filled = (over: Partial<AccountForm> = {}): AccountForm => ({ ...EMPTY_ACCOUNT_FORM, email: 'me@example.com', password: 'app pass', ...over })
/** What the server reads back: base64 → UTF-8 → JSON. */
const decode = (b64: string) => JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))))

describe('add-account form', () => {
  it('starts as the spec says: Gmail, empty e-mail and password, port 993, secure', () => {
    expect(EMPTY_ACCOUNT_FORM).toEqual({ provider: 'gmail', email: '', username: '', password: '', host: '', port: '993', secure: true })
  })

  it('presets Gmail and Yahoo to their IMAP server on 993 with TLS, and clears a preset host for Custom IMAP', () => {
    const gmail = selectProvider(selectSecurity(EMPTY_ACCOUNT_FORM, false), 'gmail')
    expect(gmail).toMatchObject({ provider: 'gmail', host: 'imap.gmail.com', port: '993', secure: true })
    expect(selectProvider(gmail, 'yahoo')).toMatchObject({ provider: 'yahoo', host: 'imap.mail.yahoo.com', port: '993', secure: true })
    expect(selectProvider(gmail, 'other')).toMatchObject({ provider: 'other', host: '', port: '993', secure: true })
    // a host the user typed survives a switch back to Custom IMAP
    expect(selectProvider({ ...EMPTY_ACCOUNT_FORM, provider: 'other', host: 'imap.example.org' }, 'other').host).toBe('imap.example.org')
  })

  it('puts SSL/TLS on 993 and STARTTLS on 143', () => {
    expect(selectSecurity(EMPTY_ACCOUNT_FORM, false)).toMatchObject({ secure: false, port: '143' })
    expect(selectSecurity(selectSecurity(EMPTY_ACCOUNT_FORM, false), true)).toMatchObject({ secure: true, port: '993' })
  })

  it('reads a port that is not a number as 993', () => {
    expect(parsePort('1143')).toBe(1143)
    expect(parsePort(' 143 ')).toBe(143)
    for (const bad of ['', 'abc', '99999', '0', '12.5', '-1', '1e3']) expect(parsePort(bad)).toBe(993)
  })

  it('asks for the e-mail and password, then the IMAP server, with the spec texts', () => {
    const missing = { title: 'Missing fields', description: 'Please fill in all required fields.' }
    expect(checkAccountForm(EMPTY_ACCOUNT_FORM)).toEqual({ ...missing, field: 'email' })
    expect(checkAccountForm(filled({ email: '   ' }))).toEqual({ ...missing, field: 'email' })
    expect(checkAccountForm(filled({ password: '' }))).toEqual({ ...missing, field: 'password' })
    expect(checkAccountForm(filled({ password: '  ' }))).toEqual({ ...missing, field: 'password' })
    expect(checkAccountForm(filled({ provider: 'other', host: ' ' }))).toEqual({ title: 'Missing IMAP server', description: 'Please enter the IMAP server address.', field: 'host' })
    expect(checkAccountForm(filled())).toBeUndefined()
    expect(checkAccountForm(filled({ provider: 'other', host: 'imap.example.org' }))).toBeUndefined()
  })

  it('sends { provider, email, encryptedCredentials } with base64 of { email, password, host, port, secure }', () => {
    const custom = createProviderRequest(filled({ provider: 'other', email: ' me@example.org ', password: 'pässwörd ✓', host: ' imap.example.org ', port: '143', secure: false }))
    expect(Object.keys(custom)).toEqual(['provider', 'email', 'encryptedCredentials'])
    expect(custom.provider).toBe('other')
    expect(custom.email).toBe('me@example.org')
    expect(decode(custom.encryptedCredentials)).toEqual({ email: 'me@example.org', password: 'pässwörd ✓', host: 'imap.example.org', port: 143, secure: false })
    // the server's own schema takes what the browser sends
    expect(v.parse(ImapCredentialsSchema, decode(custom.encryptedCredentials))).toMatchObject({ host: 'imap.example.org', port: 143, secure: false })
    const gmail = createProviderRequest(filled({ provider: 'gmail', host: 'typed.example', port: 'x' }))
    expect(decode(gmail.encryptedCredentials)).toEqual({ email: 'me@example.com', password: 'app pass', host: 'imap.gmail.com', port: 993, secure: true })
    const oddPort = createProviderRequest(filled({ provider: 'other', host: 'imap.example.org', port: 'nine' }))
    expect(decode(oddPort.encryptedCredentials).port).toBe(993)
  })

  it("logs in with Custom IMAP's user name when one is given, else the address", () => {
    const named = createProviderRequest(filled({ provider: 'other', host: 'imap.example.org', username: ' me-login ' }))
    expect(named.email).toBe('me@example.com')
    expect(decode(named.encryptedCredentials).email).toBe('me-login')
    expect(v.parse(ImapCredentialsSchema, decode(named.encryptedCredentials)).email).toBe('me-login')
    // a preset's login is the address (the field is not shown there)
    expect(decode(createProviderRequest(filled({ provider: 'gmail', username: 'typed-before' })).encryptedCredentials).email).toBe('me@example.com')
  })
})

describe('edit-account form', () => {
  const custom = { provider: 'other' as const, email: 'me@example.org', username: 'me-login', host: 'imap.example.org', port: 143, secure: false }
  it('starts from the account (no password; the address as login shows as an empty user name)', () => {
    expect(editAccountForm(custom)).toEqual({ provider: 'other', username: 'me-login', password: '', host: 'imap.example.org', port: '143', secure: false })
    expect(editAccountForm({ ...custom, username: custom.email }).username).toBe('')
  })

  it('sends the server and login of Custom IMAP, only the login of a preset, and a password only when typed', () => {
    const form = editAccountForm(custom)
    expect(updateProviderRequest({ ...form, host: ' imap2.example.org ', port: 'x' })).toEqual({ username: 'me-login', host: 'imap2.example.org', port: 993, secure: false })
    expect(updateProviderRequest({ ...form, password: 'new pw' })).toMatchObject({ password: 'new pw' })
    expect(updateProviderRequest({ ...form, host: '  ' })).toEqual({ title: 'Missing IMAP server', description: 'Please enter the IMAP server address.', field: 'host' })
    expect(updateProviderRequest(editAccountForm({ ...custom, provider: 'gmail', host: 'imap.gmail.com', port: 993, secure: true }))).toEqual({ username: 'me-login' })
  })
})
