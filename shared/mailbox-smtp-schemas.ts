// Sending as a connected mailbox (README "Sending as your mailbox"): its own SMTP server, a preset
// for Gmail, Yahoo and Outlook, any server for a custom account. Keep this file free of Node-only
// imports: the browser bundles it.
import * as v from 'valibot'
import type { ProviderKind } from './email-provider-schemas.ts'

/** 'tls': implicit TLS from the start (465, RFC 8314); 'starttls': STARTTLS required (587, RFC 3207). */
export type SmtpSecurity = 'tls' | 'starttls'

export interface SmtpServer {
  host: string
  port: number
  security: SmtpSecurity
}

/** The providers' submission servers (Outlook's takes the account's OAuth2 token over XOAUTH2). */
export const SMTP_PRESETS: Partial<Record<ProviderKind, SmtpServer>> = {
  gmail: { host: 'smtp.gmail.com', port: 465, security: 'tls' },
  yahoo: { host: 'smtp.mail.yahoo.com', port: 465, security: 'tls' },
  outlook: { host: 'smtp.office365.com', port: 587, security: 'starttls' },
}

/** The account's SMTP server as stored (all null: not set by the user). */
export interface StoredSmtp {
  provider: ProviderKind
  smtpHost: string | null
  smtpPort: number | null
  smtpSecurity: SmtpSecurity | null
}

/** The server the account sends through: the user's own setting, else its provider's preset; undefined when not set up. */
export function smtpServerOf(row: StoredSmtp): SmtpServer | undefined {
  if (row.smtpHost && row.smtpPort && row.smtpSecurity) return { host: row.smtpHost, port: row.smtpPort, security: row.smtpSecurity }
  return SMTP_PRESETS[row.provider]
}

/** What GET /api/email-providers says of an account's sending (never a password). */
export interface SmtpView extends SmtpServer {
  /** the provider's preset, not a server the user entered */
  preset: boolean
  /** a login of its own (user name shown), else the IMAP login */
  username: string | null
}

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const IPV6 = /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/i
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/

/**
 * PUT /api/email-providers/{id}/smtp. `username` and `password` given: a login of its own; both
 * left out (or empty): the IMAP login. A password left out with a username kept keeps the one stored.
 */
export const UpdateSmtpSchema = v.object({
  host: v.pipe(v.string('Please enter the SMTP server address.'), v.trim(), v.toLowerCase(), v.nonEmpty('Please enter the SMTP server address.'),
    v.check((h) => HOST.test(h) || IPV6.test(h), 'Please enter a valid SMTP server address.')),
  port: v.pipe(v.number('Port must be a number from 1 to 65535'), v.integer('Port must be a number from 1 to 65535'),
    v.minValue(1, 'Port must be a number from 1 to 65535'), v.maxValue(65535, 'Port must be a number from 1 to 65535')),
  security: v.picklist(['tls', 'starttls'], 'Security must be SSL/TLS (tls) or STARTTLS (starttls)'),
  username: v.optional(v.pipe(v.string('User name must be text'), v.trim(), v.maxLength(254, 'User name is too long'),
    v.check((s) => NO_CONTROL.test(s), 'User name cannot contain control characters')), ''),
  password: v.optional(v.pipe(v.string('Password must be text'), v.maxLength(1024, 'Password is too long'),
    v.check((s) => NO_CONTROL.test(s), 'Password cannot contain control characters')), ''),
})
export type UpdateSmtpInput = v.InferOutput<typeof UpdateSmtpSchema>
