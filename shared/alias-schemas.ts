// Alias requests, shared by the dashboard forms and the alias routes.
// Keep this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { text } from './auth-schemas.ts'
import { isEmailTarget, isWebhookUrl, splitTargets } from './alias-target-rules.ts'

export const NOTES_MAX = 128
export const MAX_FORWARD_TARGETS = 10
export const PAUSED = 'null' // forwardTo's literal text null means paused

const ALIAS_RE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]|\.(?!\.))*$/ // letters, digits, - _ . ; no leading, trailing or double dot
export const TARGETS_MESSAGE = 'Please enter valid email addresses and/or webhook URLs (https://example.com/hook) separated by commas'

/** The alias rules a name made without a form must pass too (aliases made on first use). */
export const isValidAliasName = (name: string) => name.length <= 64 && ALIAS_RE.test(name) && !name.endsWith('.')

const AliasName = v.pipe(
  text('Alias is required'),
  v.trim(),
  v.nonEmpty('Alias is required'),
  v.maxLength(64, 'Alias must be 64 characters or less'),
  v.regex(ALIAS_RE, 'Invalid alias format'),
)

const ForwardTo = v.pipe(
  text('At least one email address or webhook URL is required'),
  v.trim(),
  v.nonEmpty('At least one email address or webhook URL is required'),
  v.check((s) => splitTargets(s).length > 0, 'At least one email address or webhook URL is required'),
  v.check((s) => splitTargets(s).every((t) => isEmailTarget(t) || isWebhookUrl(t)), TARGETS_MESSAGE),
  v.check((s) => splitTargets(s).length <= MAX_FORWARD_TARGETS, `At most ${MAX_FORWARD_TARGETS} recipients per alias`),
  v.transform((s) => splitTargets(s).join(',')),
)

const Notes = v.pipe(v.string(), v.trim(), v.maxLength(NOTES_MAX, 'Notes must be 128 characters or less'))

export const CreateAliasSchema = v.object({
  alias: AliasName,
  domain: v.pipe(text('Domain is required'), v.trim(), v.toLowerCase(), v.nonEmpty('Domain is required')),
  forwardTo: ForwardTo,
  notes: v.optional(v.nullable(Notes)),
})
export type CreateAliasInput = v.InferOutput<typeof CreateAliasSchema>

/**
 * What becomes of mail the spam filter (rspamd) calls spam, per alias: forwarded with X-Spam-Status
 * and X-Spam-Score ('tag', the default), also with [SPAM] before its Subject ('tag-subject'), or
 * dropped and counted ('drop'). Mail rspamd rejects is refused at the MX whatever this says.
 */
export const SPAM_HANDLINGS = ['tag', 'tag-subject', 'drop'] as const
export type SpamHandling = (typeof SPAM_HANDLINGS)[number]

export const UpdateAliasSchema = v.pipe(
  v.object({
    alias: v.optional(AliasName),
    forwardTo: v.optional(v.union([v.literal(PAUSED), ForwardTo])),
    notes: v.optional(v.nullable(Notes)),
    active: v.optional(v.boolean('Active must be true or false')),
    lastForwardTo: v.optional(v.nullable(ForwardTo)),
    encryptForwarded: v.optional(v.boolean('encryptForwarded must be true or false')),
    spamHandling: v.optional(v.picklist(SPAM_HANDLINGS, `spamHandling must be one of ${SPAM_HANDLINGS.join(', ')}`)),
  }),
  v.check(
    (u) => ['alias', 'forwardTo', 'notes', 'active', 'lastForwardTo', 'encryptForwarded', 'spamHandling'].some((k) => (u as Record<string, unknown>)[k] !== undefined),
    // the message names the original fields; encryptForwarded (issue #6) counts too
    'At least one field (alias, forwardTo, active, notes, or lastForwardTo) must be provided',
  ),
)
export type UpdateAliasInput = v.InferOutput<typeof UpdateAliasSchema>

export const ToggleAliasSchema = v.object({ active: v.boolean('Active must be true or false') })

/** An alias as the API returns it. */
export interface AliasView {
  id: string
  userId: string
  alias: string
  domain: string
  forwardTo: string
  lastForwardTo: string | null
  active: boolean
  /** mail forwarded to the e-mail targets is encrypted to the owner's default age key, when there is one */
  encryptForwarded: boolean
  /** what becomes of mail the spam filter calls spam (SPAM_HANDLINGS) */
  spamHandling: SpamHandling
  notes: string | null
  /** the app that made it with an API key (issue 28), and the website it was made for */
  madeBy: AliasMadeBy | null
  hostname: string | null
  createdAt: string
  updatedAt: string
  /** `spam`: messages dropped as spam ('drop') */
  counters: { forwarded: number; replied: number; dropped: number; failed: number; spam: number }
}

/**
 * Which API made an alias: Veilmail's own, or the SimpleLogin- or addy.io-compatible one; or the
 * first message to it (a custom domain's catch-all, the personal subdomain: issue 29).
 */
export type AliasMadeBy = 'api' | 'simplelogin' | 'addy' | 'catch-all' | 'subdomain'

/** An e-mail forward target: mail goes there only once the address confirmed (issue 11 item 5). */
export interface ForwardTargetView {
  email: string
  confirmed: boolean
  /** forwards waiting for the confirmation, or for the re-enable of a target marked for its bounces */
  held: number
  /** hard bounces in a row (issue 30) */
  bounces: number
  /** marked after too many hard bounces in a row: forwards to it are held */
  disabled: boolean
  /** the target's server's last refusal: its code and reason */
  lastBounce: { code: number; reason: string } | null
}

/** "Send a test mail" to a forward target (issue 30), as the browser polls it. */
export interface TargetTestMailView {
  /** sending: queued or with the delivery process; queued: no delivery process took it within 20 s (it may not be running; polling stops); taken: the relay took it, the target's stop lifted; refused: a 5xx (code), also from a later delivery report; failed: no answer now */
  status: 'sending' | 'queued' | 'taken' | 'refused' | 'failed'
  message: string
  /** the server's code when refused */
  code: number | null
}
