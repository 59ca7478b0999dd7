// The compose form: its values, the shared email-job schema
// applied to them, and the schema's data messages replaced by the form's own.
import * as v from 'valibot'
import { PAUSED, type AliasView } from '../../../../shared/alias-schemas.ts'
import { CreateEmailJobSchema, type CreateEmailJobInput } from '../../../../shared/email-job-schemas.ts'
import { TOO_MANY_RECIPIENTS } from '../../../../shared/recipient-list.ts'
import { fromFields } from './senders.ts'

/** myPublicKeyToShare's value when the user types the key instead of picking a saved one. */
export const MANUAL_KEY = 'manual'

export interface ComposeValues {
  fromAlias: string
  /** one address or several, separated by commas (or semicolons); Cc likewise */
  to: string
  cc: string
  subject: string
  body: string
  useEncryption: boolean
  recipientPublicKey: string
  shareMyPublicKey: boolean
  /** a saved key's public key, or MANUAL_KEY */
  myPublicKeyToShare: string
  manualPublicKey: string
  /** the inbox message this answers or forwards (Reply, Forward): threading headers and its \Answered / $Forwarded mark */
  original?: { emailId: string; action: 'reply' | 'forward' }
  /** a forward's attachments of the original, as the user kept them (each removable) */
  attachments: ForwardedAttachment[]
  /** a draft reopened from the mailbox's Drafts folder: the synced message its first save replaces */
  replacesEmailId?: string
}

export interface ForwardedAttachment {
  id: string
  filename: string
  size: number
}

export const EMPTY_COMPOSE: ComposeValues = {
  fromAlias: '', to: '', cc: '', subject: '', body: '',
  useEncryption: false, recipientPublicKey: '', shareMyPublicKey: false, myPublicKeyToShare: '', manualPublicKey: '', attachments: [],
}

export type ComposeField = keyof ComposeValues
export type ComposeErrors = Partial<Record<ComposeField, string>>

export const RECIPIENT_KEY_REQUIRED = "Recipient's public key is required when encryption is enabled"
export const SHARE_KEY_REQUIRED = 'Please select or enter your public key to share'
export const PUBLIC_KEY_REQUIRED_TOAST = { title: 'Public key required', description: "Please provide the recipient's public key for encryption." }

/** A From option: an alias, or a connected mailbox sending as itself (senders.ts). */
export interface SenderAlias {
  id: string
  address: string
  mailbox?: boolean
}

/** The aliases that can send: paused ones are refused by the server. */
export function senderAliases(aliases: readonly AliasView[]): SenderAlias[] {
  return aliases.filter((a) => a.active && a.forwardTo !== PAUSED).map((a) => ({ id: a.id, address: `${a.alias}@${a.domain}` }))
}

/** Sharing is part of encryption: with encryption off its switch is hidden and nothing is shared. */
const sharing = (values: ComposeValues) => values.useEncryption && values.shareMyPublicKey

function sharedKey(values: ComposeValues): string {
  if (!sharing(values)) return ''
  return values.myPublicKeyToShare === MANUAL_KEY ? values.manualPublicKey : values.myPublicKeyToShare
}

// Schema paths → form fields, and the form's own wording where the data wording differs.
const FIELD_OF: Record<string, ComposeField> = { fromAliasId: 'fromAlias', fromProviderId: 'fromAlias', original: 'attachments' }
const FORM_MESSAGE: Partial<Record<ComposeField, Record<string, string>>> = {
  body: { 'Email body is required': 'Message body is required' },
}

/**
 * First message per form field, from the schema's issues or a server's `errors` map. The shared
 * key's error goes under whichever control holds the key: the saved-key select or the textarea.
 */
export function composeErrors(messages: Record<string, readonly string[] | undefined>, values: ComposeValues): ComposeErrors {
  const errors: ComposeErrors = {}
  for (const [path, list] of Object.entries(messages)) {
    const message = list?.[0]
    if (!message) continue
    let field = FIELD_OF[path] ?? (path as ComposeField)
    if (field === 'myPublicKeyToShare' && values.myPublicKeyToShare === MANUAL_KEY) field = 'manualPublicKey'
    errors[field] ??= field === 'to' || field === 'cc' ? recipientMessage(message) : (FORM_MESSAGE[field]?.[message] ?? message)
  }
  return errors
}

/**
 * A To or Cc problem as the person typing reads it: the bad address named ("x" is not a valid
 * email address), too many, or else (empty, a line break) the spec's "Please enter a valid email address".
 */
const recipientMessage = (message: string) => (message.startsWith('"') || message === TOO_MANY_RECIPIENTS ? message : 'Please enter a valid email address')

export type ComposeValidation = { success: true; request: CreateEmailJobInput } | { success: false; errors: ComposeErrors }

export function validateCompose(values: ComposeValues): ComposeValidation {
  const input = {
    to: values.to,
    cc: values.cc,
    subject: values.subject,
    body: values.body,
    ...fromFields(values.fromAlias),
    useEncryption: values.useEncryption,
    recipientPublicKey: values.useEncryption ? values.recipientPublicKey : '',
    shareMyPublicKey: sharing(values),
    myPublicKeyToShare: sharedKey(values),
    priority: 0,
    ...(values.original ? { original: { ...values.original, attachmentIds: values.attachments.map((a) => a.id) } } : {}),
  }
  const parsed = v.safeParse(CreateEmailJobSchema, input, { abortPipeEarly: true })
  const messages: Record<string, readonly string[] | undefined> = parsed.success ? {} : { ...v.flatten(parsed.issues).nested }
  // The schema asks for the conditional keys only once every other field parsed; ask here too so
  // that every missing field shows at once.
  if (input.useEncryption && !input.recipientPublicKey.trim()) messages.recipientPublicKey ??= [RECIPIENT_KEY_REQUIRED]
  if (input.shareMyPublicKey && !input.myPublicKeyToShare.trim()) messages.myPublicKeyToShare ??= [SHARE_KEY_REQUIRED]
  const errors = composeErrors(messages, values)
  if (parsed.success && Object.keys(errors).length === 0) return { success: true, request: parsed.output }
  return { success: false, errors }
}

/** A saved key the user can share (GET /api/encryption-keys). */
export interface ShareableKey {
  id: string
  keyName: string
  publicKey: string
  isDefault: boolean
}

/** What the key selector shows when sharing is switched on: the default key, else typing one. */
export function initialShareChoice(keys: readonly ShareableKey[] | undefined): string {
  if (!keys) return '' // still loading: the placeholder until the user picks
  return (keys.find((k) => k.isDefault) ?? keys[0])?.publicKey ?? MANUAL_KEY
}
