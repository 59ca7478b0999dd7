// Custom domains (issue 29), shared by Settings → Domains and the domain routes.
// Keep this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { text } from './auth-schemas.ts'

// RFC 1035 §2.3.1 labels (letters, digits, hyphens inside), at least two of them, 253 characters at most.
const DOMAIN_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/
export const DOMAIN_FORMAT_MESSAGE = 'Enter a domain name such as example.com'
export const MAX_CUSTOM_DOMAINS = 20

export const AddDomainSchema = v.object({
  domain: v.pipe(
    text('Domain is required'),
    v.trim(),
    v.toLowerCase(),
    v.transform((s) => s.replace(/\.$/, '')),
    v.nonEmpty('Domain is required'),
    v.regex(DOMAIN_RE, DOMAIN_FORMAT_MESSAGE),
  ),
})

export const UpdateDomainSchema = v.pipe(
  v.object({
    catchAll: v.optional(v.boolean('catchAll must be true or false')),
    defaultTarget: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('Enter an e-mail address'), v.maxLength(254)))),
  }),
  v.check((u) => u.catchAll !== undefined || u.defaultTarget !== undefined, 'Give catchAll or defaultTarget'),
)

export type RecordPurpose = 'ownership' | 'mx' | 'spf' | 'dkim' | 'dmarc'
/** `unchecked` until the first check; then what the check saw */
export type RecordState = 'unchecked' | 'ok' | 'missing' | 'wrong'

export interface DomainRecordView {
  type: 'TXT' | 'MX'
  /** the name to publish it at */
  name: string
  /** the value to publish (MX: `10 <host>`) */
  value: string
  purpose: RecordPurpose
  state: RecordState
  /** what the check found at that name (the records of that type; for TXT only those that look like this kind) */
  found: string[]
}

export interface DomainView {
  id: string
  domain: string
  status: 'pending' | 'active'
  catchAll: boolean
  /** where mail to aliases made by the catch-all goes; null = the account's address */
  defaultTarget: string | null
  records: DomainRecordView[]
  checkedAt: string | null
  createdAt: string
}

// The personal subdomain's name: one DNS label (RFC 1035 §2.3.1), lower case, 2 to 32 characters.
export const USERNAME_RE = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])$/
export const USERNAME_MESSAGE = 'Use 2 to 32 letters, digits or hyphens (not at the start or end)'

export const UsernameSchema = v.object({
  username: v.pipe(text('Username is required'), v.trim(), v.toLowerCase(), v.nonEmpty('Username is required'), v.regex(USERNAME_RE, USERNAME_MESSAGE)),
})

export interface UsernameView {
  username: string | null
  /** `<username>.<first MAIL_DOMAIN>`, where any address makes an alias on first use; null until chosen */
  subdomain: string | null
}
