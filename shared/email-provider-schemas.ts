// Connected mailboxes as the API takes and returns them (README "Connecting a mailbox"). Keep
// this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import type { SmtpView } from './mailbox-smtp-schemas.ts'

export const PROVIDERS = ['gmail', 'outlook', 'yahoo', 'other'] as const
export type ProviderKind = (typeof PROVIDERS)[number]

/** IMAP servers of the presets: port 993 with implicit TLS (RFC 8314). */
export const PROVIDER_PRESETS: Partial<Record<ProviderKind, { host: string; port: number; secure: boolean }>> = {
  gmail: { host: 'imap.gmail.com', port: 993, secure: true },
  yahoo: { host: 'imap.mail.yahoo.com', port: 993, secure: true },
}

const REQUIRED = 'Please fill in all required fields.'

export const CreateEmailProviderSchema = v.object({
  provider: v.picklist(PROVIDERS, 'Provider must be one of gmail, outlook, yahoo, other'),
  email: v.pipe(v.string('Valid email address is required'), v.trim(), v.nonEmpty('Valid email address is required'), v.maxLength(254, 'Valid email address is required'), v.email('Valid email address is required')),
  /** base64 of the JSON credentials object */
  encryptedCredentials: v.pipe(v.string('Credentials are required'), v.nonEmpty('Credentials are required'), v.maxLength(8192, 'Credentials are too long')),
})

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const IPV6 = /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/i

const USERNAME = 'Please enter a valid user name.'
/** The IMAP login, when it is not the address (empty: the address); one line, as IMAP LOGIN sends it. */
const Username = v.pipe(v.string(USERNAME), v.trim(), v.maxLength(254, 'User name is too long'), v.check((s) => !/[\u0000-\u001f\u007f]/.test(s), USERNAME))
const Host = v.pipe(v.string('Please enter the IMAP server address.'), v.trim(), v.toLowerCase(),
  v.check((h) => h === '' || HOST.test(h) || IPV6.test(h), 'Please enter a valid IMAP server address.'))
// a port that is not a number falls back to 993, the IMAPS port (RFC 8314)
const Port = v.pipe(v.unknown(), v.transform((p) => {
  const n = typeof p === 'number' ? p : typeof p === 'string' && /^\d+$/.test(p.trim()) ? Number(p) : NaN
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : 993
}))
const Secure = v.boolean('Security must be SSL/TLS (true) or STARTTLS (false)')
const Password = v.pipe(v.string(REQUIRED), v.maxLength(1024, 'Password is too long'))

/** The decoded credentials: { email (the login), password, host, port, secure }. */
export const ImapCredentialsSchema = v.object({
  email: v.optional(Username, ''),
  password: v.pipe(Password, v.nonEmpty(REQUIRED)),
  host: v.optional(Host, ''),
  port: v.optional(Port, 993),
  secure: v.optional(Secure, true),
})

const EDIT_FIELDS = ['username', 'password', 'host', 'port', 'secure'] as const

/**
 * PATCH /api/email-providers/{id}: a password account's connection fixed (one whose first login
 * failed, say). Each field left out stays as stored; an empty password keeps the stored one, an
 * empty user name logs in with the address. Gmail's and Yahoo's servers stay their presets.
 */
export const UpdateEmailProviderSchema = v.pipe(
  v.object({ username: v.optional(Username), password: v.optional(Password), host: v.optional(Host), port: v.optional(Port), secure: v.optional(Secure) }),
  v.check((input) => EDIT_FIELDS.some((f) => input[f] !== undefined), 'At least one field (username, password, host, port or secure) must be provided'),
)
export type UpdateEmailProviderInput = v.InferOutput<typeof UpdateEmailProviderSchema>

export interface FolderView {
  id: string
  path: string
  /** RFC 6154 role: \\Inbox, \\Sent, \\Archive, \\Trash, \\Drafts, \\Junk, or null */
  specialUse: string | null
  /** synced into the inbox (INBOX always; any other folder once the user enables it) */
  enabled: boolean
  /** messages on the server at the last sync, and how many of them are unseen there */
  messageCount: number
  unseenCount: number
  /** messages stored here, and how many of them are unread */
  stored: number
  unread: number
}

export interface EmailProviderView {
  id: string
  provider: ProviderKind
  email: string
  /** the IMAP login: the address unless the user gave another user name */
  username: string
  host: string
  port: number
  secure: boolean
  isActive: boolean
  /** connecting: first login being checked; syncing: progressDone of progressTotal; error: see lastError */
  state: 'connecting' | 'idle' | 'syncing' | 'error'
  progressDone: number
  progressTotal: number
  lastError: string | null
  /** the schedule is stopped until the account is fixed (a refused password, a forbidden host) */
  needsAttention: boolean
  /** it says syncing, but no sync runs it now (its process stopped; the sync starts again by itself) */
  stalled: boolean
  lastSyncAt: string | null
  createdAt: string
  updatedAt: string
  folders: FolderView[]
  /** its SMTP server for sending as this address; null when not set up (a custom account) */
  smtp: SmtpView | null
}

export interface SyncJobView {
  success: true
  jobId: string
  providerId: string
  /** queued → running → done | failed (queued again while a retry waits) */
  status: 'queued' | 'running' | 'done' | 'failed'
  syncResult: { newEmailsCount: number }
  error: string | null
  provider: EmailProviderView | null
}

/** PATCH /api/email-providers/{id}/folders: sync a folder (or stop syncing it and drop its stored mail). */
export const UpdateFolderSchema = v.object({
  path: v.pipe(v.string('Folder path is required'), v.nonEmpty('Folder path is required'), v.maxLength(1000, 'Folder path is too long')),
  enabled: v.boolean('enabled must be true or false'),
})
