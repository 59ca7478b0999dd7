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

/** The decoded credentials: { email, password, host, port, secure }. */
export const ImapCredentialsSchema = v.object({
  email: v.optional(v.string(), ''),
  password: v.pipe(v.string(REQUIRED), v.nonEmpty(REQUIRED), v.maxLength(1024, 'Password is too long')),
  host: v.optional(v.pipe(v.string('Please enter the IMAP server address.'), v.trim(), v.toLowerCase(),
    v.check((h) => h === '' || HOST.test(h) || IPV6.test(h), 'Please enter a valid IMAP server address.')), ''),
  // a port that is not a number falls back to 993, the IMAPS port (RFC 8314)
  port: v.pipe(v.optional(v.unknown()), v.transform((p) => {
    const n = typeof p === 'number' ? p : typeof p === 'string' && /^\d+$/.test(p.trim()) ? Number(p) : NaN
    return Number.isInteger(n) && n > 0 && n < 65536 ? n : 993
  })),
  secure: v.optional(v.boolean('Security must be SSL/TLS (true) or STARTTLS (false)'), true),
})

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
