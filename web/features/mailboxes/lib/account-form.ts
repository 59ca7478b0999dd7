// The add-account form (README "Connecting a mailbox" and "Connecting a mailbox (server side)"):
// provider presets, the browser-side checks with their exact messages, and the wire format the
// API takes, `{ provider, email, encryptedCredentials }` with base64 of the JSON credentials.
import { PROVIDER_PRESETS, type ProviderKind, type UpdateEmailProviderInput } from '../../../../shared/email-provider-schemas.ts'

/** The providers the form connects with a password (Outlook signs in with Microsoft instead). */
export type PasswordProvider = Exclude<ProviderKind, 'outlook'>

export const SSL_PORT = 993
export const STARTTLS_PORT = 143

export interface AccountForm {
  provider: PasswordProvider
  email: string
  /** Custom IMAP: the server's login when it is not the address (empty: the address) */
  username: string
  password: string
  host: string
  /** as typed; read by parsePort */
  port: string
  /** true: SSL/TLS, false: STARTTLS */
  secure: boolean
}

export const EMPTY_ACCOUNT_FORM: AccountForm = { provider: 'gmail', email: '', username: '', password: '', host: '', port: String(SSL_PORT), secure: true }

export interface FormProblem {
  title: string
  description: string
  /** the field to point at */
  field: 'email' | 'password' | 'host'
}

/** Gmail and Yahoo fix their IMAP server (993, TLS); Custom IMAP starts empty on 993 with TLS. */
export function selectProvider(form: AccountForm, provider: PasswordProvider): AccountForm {
  const preset = PROVIDER_PRESETS[provider]
  if (preset) return { ...form, provider, host: preset.host, port: String(preset.port), secure: preset.secure }
  const wasPreset = Object.values(PROVIDER_PRESETS).some((p) => p?.host === form.host)
  return { ...form, provider, host: wasPreset ? '' : form.host, port: String(SSL_PORT), secure: true }
}

/** SSL/TLS goes with port 993, STARTTLS with 143. */
export const selectSecurity = <F extends Pick<AccountForm, 'secure' | 'port'>>(form: F, secure: boolean): F => ({ ...form, secure, port: String(secure ? SSL_PORT : STARTTLS_PORT) })

/** A port that is not a number falls back to 993, the IMAP-over-TLS port (RFC 8314 §3.3). */
export function parsePort(port: string): number {
  const trimmed = port.trim()
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : SSL_PORT
}

const MISSING_HOST: FormProblem = { title: 'Missing IMAP server', description: 'Please enter the IMAP server address.', field: 'host' }

/** The first browser-side problem, with its toast title and text; none when the form may be sent. */
export function checkAccountForm(form: AccountForm): FormProblem | undefined {
  if (!form.email.trim() || !form.password.trim()) {
    return { title: 'Missing fields', description: 'Please fill in all required fields.', field: form.email.trim() ? 'password' : 'email' }
  }
  if (form.provider === 'other' && !form.host.trim()) return MISSING_HOST
  return undefined
}

/** base64 of UTF-8 (btoa alone refuses characters above U+00FF, which a password may hold). */
export function base64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

export interface CreateEmailProviderRequest {
  provider: PasswordProvider
  email: string
  encryptedCredentials: string
}

/** What POST /api/email-providers takes, from a form that passed checkAccountForm. */
export function createProviderRequest(form: AccountForm): CreateEmailProviderRequest {
  const email = form.email.trim()
  const preset = PROVIDER_PRESETS[form.provider]
  const server = preset ?? { host: form.host.trim(), port: parsePort(form.port), secure: form.secure }
  const login = (!preset && form.username.trim()) || email
  return { provider: form.provider, email, encryptedCredentials: base64Json({ email: login, password: form.password, ...server }) }
}

/** The edit form of a connected password account: its server (Custom IMAP) and login; an empty password keeps the saved one. */
export type EditAccountForm = Omit<AccountForm, 'email'>

export function editAccountForm(p: { provider: PasswordProvider; email: string; username: string; host: string; port: number; secure: boolean }): EditAccountForm {
  return { provider: p.provider, username: p.username === p.email ? '' : p.username, password: '', host: p.host, port: String(p.port), secure: p.secure }
}

/** What PATCH /api/email-providers/{id} takes (the server's schema). */
export type UpdateEmailProviderRequest = UpdateEmailProviderInput

/** What PATCH /api/email-providers/{id} takes; a problem (the server left empty) instead when there is one. */
export function updateProviderRequest(form: EditAccountForm): UpdateEmailProviderRequest | FormProblem {
  const login = { username: form.username.trim(), ...(form.password ? { password: form.password } : {}) }
  if (PROVIDER_PRESETS[form.provider]) return login
  if (!form.host.trim()) return MISSING_HOST
  return { ...login, host: form.host.trim(), port: parsePort(form.port), secure: form.secure }
}
