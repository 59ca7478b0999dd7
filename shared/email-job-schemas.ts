// Outgoing e-mail requests (POST /api/email-jobs), shared with the compose forms.
// Keep this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { text } from './auth-schemas.ts'
import { AGE_RECIPIENT_RE } from './age-recipient-rules.ts'
import { HEADER_INJECTION_MESSAGE, MAX_MESSAGE_RECIPIENTS, NO_LINE_BREAKS, RecipientList, TOO_MANY_RECIPIENTS } from './recipient-list.ts'

/** Encryption covers the text only: forwarded attachments would leave unencrypted. */
export const ENCRYPTED_ATTACHMENTS = 'Attachments cannot be sent encrypted: remove them to send this encrypted'

const AgeKey = (required: string) => v.pipe(
  v.optional(v.nullable(v.string()), ''),
  v.transform((s) => (s ?? '').trim()),
  v.check((s) => s === '' || AGE_RECIPIENT_RE.test(s), 'Not a valid age public key (age1…)'),
  v.transform((s) => s || undefined),
  v.optional(v.string(required)),
)

export const CreateEmailJobSchema = v.pipe(
  v.object({
    /** one address or several, comma-separated (shared/recipient-list.ts); Cc likewise, optional */
    to: RecipientList('Valid recipient email is required'),
    cc: RecipientList(),
    subject: v.pipe(text('Subject is required'), v.check((s) => NO_LINE_BREAKS.test(s), HEADER_INJECTION_MESSAGE), v.trim(), v.nonEmpty('Subject is required'), v.maxLength(900, 'Subject must be 900 characters or less')),
    body: v.pipe(text('Email body is required'), v.check((s) => s.trim() !== '', 'Email body is required'), v.maxLength(5_000_000, 'Email body is too large')),
    /** the alias it leaves from, or instead `fromProviderId`: a connected mailbox, sent through its own SMTP server */
    fromAliasId: v.optional(v.pipe(text('Please select a sender alias'), v.nonEmpty('Please select a sender alias'), v.uuid('Please select a sender alias'))),
    fromProviderId: v.optional(v.pipe(text('Please select a sender'), v.uuid('Please select a sender'))),
    /** the draft this mail was written as (PUT /api/drafts/{id}): sent, it leaves the account's Drafts folder */
    draftId: v.optional(v.pipe(text('The draft must be a draft id'), v.uuid('The draft must be a draft id'))),
    useEncryption: v.optional(v.boolean(), false),
    recipientPublicKey: AgeKey("Recipient's public key is required when encryption is enabled"),
    shareMyPublicKey: v.optional(v.boolean(), false),
    myPublicKeyToShare: AgeKey('Please select or enter your public key to share'),
    priority: v.optional(v.pipe(v.number('Priority must be a whole number from 0 to 10'), v.integer('Priority must be a whole number from 0 to 10'), v.minValue(0, 'Priority must be a whole number from 0 to 10'), v.maxValue(10, 'Priority must be a whole number from 0 to 10')), 0),
    scheduledAt: v.optional(v.pipe(v.string(), v.isoTimestamp('Scheduled time must be a date'))),
    /**
     * The synced message this mail replies to or forwards (GET /api/emails/{id}): a reply carries its
     * In-Reply-To and References; a forward carries the attachments named here (some or all of the
     * original's). Once sent, the original is marked \Answered or $Forwarded on its server.
     */
    original: v.optional(v.object({
      emailId: v.pipe(v.string('The original email must be an email id'), v.uuid('The original email must be an email id')),
      action: v.picklist(['reply', 'forward'], 'The action must be reply or forward'),
      attachmentIds: v.optional(v.pipe(
        v.array(v.pipe(v.string('Attachments must be attachment ids'), v.uuid('Attachments must be attachment ids')), 'Attachments must be attachment ids'),
        v.maxLength(100, 'At most 100 attachments can be forwarded'),
      ), []),
    })),
  }),
  // someone in both fields is sent to once, as To
  v.transform((j) => ({ ...j, cc: j.cc.filter((a) => !j.to.some((t) => t.toLowerCase() === a.toLowerCase())) })),
  v.forward(v.check((j) => j.to.length + j.cc.length <= MAX_MESSAGE_RECIPIENTS, TOO_MANY_RECIPIENTS), ['cc']),
  v.forward(v.check((j) => Boolean(j.fromAliasId) !== Boolean(j.fromProviderId), 'Please select a sender alias'), ['fromAliasId']),
  v.forward(v.check((j) => !j.useEncryption || Boolean(j.recipientPublicKey), "Recipient's public key is required when encryption is enabled"), ['recipientPublicKey']),
  v.forward(v.check((j) => !j.shareMyPublicKey || Boolean(j.myPublicKeyToShare), 'Please select or enter your public key to share'), ['myPublicKeyToShare']),
  v.forward(v.check((j) => !j.original?.attachmentIds.length || j.original.action === 'forward', 'Only a forward carries the original attachments'), ['original']),
  v.forward(v.check((j) => !j.useEncryption || !j.original?.attachmentIds.length, ENCRYPTED_ATTACHMENTS), ['original']),
)
export type CreateEmailJobInput = v.InferOutput<typeof CreateEmailJobSchema>

export interface EmailJobStatusView {
  success: true
  status: 'pending' | 'sending' | 'retrying' | 'sent' | 'failed' | 'cancelled'
  currentRetries: number
  maxRetries: number
  lastError: string | null
  messageId: string | null
  canUndo: boolean
}
