// What each public route answers, for the OpenAPI document: its success status and body, and the
// error statuses it can answer (each with { message, errors? }). Keyed like route-descriptions.ts;
// api/openapi/openapi-conformance.test.ts calls every route (signed in, signed out, with another
// user's ids, with a bad body) and fails on any answer this table does not describe.
import * as v from 'valibot'
import { EmailOnlySchema } from '../../shared/auth-schemas.ts'
import { SPAM_HANDLINGS } from '../../shared/alias-schemas.ts'

/** A response body: a valibot schema (converted by @valibot/to-json-schema) or a JSON Schema. */
export type Body = v.GenericSchema | Record<string, unknown>
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 429 | 503

export interface RouteResponses {
  ok: { status: 200 | 201 | 202 | 204 | 302; description: string; body?: Body; contentType?: string }
  errors: ErrorStatus[]
  /** the body of a route that reads it by hand (not through jsonBody), as the document shows it */
  requestBody?: { description: string; schema: v.GenericSchema }
  /** words for an error status beyond ERROR_DESCRIPTIONS */
  errorNotes?: Partial<Record<ErrorStatus, string>>
  /**
   * The path template the document writes when the route's own would collide with another's
   * (OpenAPI 3.1: templated paths that differ only in names, or that can match the same URL, must
   * not exist): one template, each parameter described for this route.
   */
  template?: { path: string; params: Record<string, { description: string; schema: Record<string, unknown> }> }
  /** a browser navigation: without a (confirmed) session it redirects to /auth instead of answering 401 or 403 */
  redirectsSignedOut?: boolean
}

/** { message, errors? }: errors maps each field to its messages. */
export const ErrorBody = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'messages per field (`_` for the body as a whole)' },
    rateLimited: { const: true, description: 'on 429' },
    resetTime: { type: 'string', format: 'date-time', description: 'on 429: when the limit resets' },
    verificationRequired: { const: true, description: 'on 403 when the e-mail address is not confirmed yet' },
    success: { const: false, description: 'on some answers of the mail routes' },
  },
  required: ['message'],
  additionalProperties: false,
}

export const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid request: the message, and errors per field',
  401: 'Not signed in (no session, an expired one, or a wrong API key)',
  403: 'Refused: a request with the session cookie from another Origin, or an e-mail address not confirmed yet',
  404: 'Not found, or not yours',
  409: 'Conflicts with what exists',
  413: 'Request body over 1 MiB',
  429: 'Too many requests: try again after resetTime',
  410: 'No longer usable: expired or used already',
  503: 'Not available on this server',
}

const id = v.pipe(v.string(), v.uuid())
const time = v.pipe(v.string(), v.isoTimestamp())
const day = v.pipe(v.string(), v.isoDate())
const nullable = <S extends v.GenericSchema>(schema: S) => v.nullable(schema)
const message = (words: string) => v.pipe(v.object({ message: v.string() }), v.description(words))
const withMessage = <E extends v.ObjectEntries>(entries: E) => v.object({ message: v.string(), ...entries })

const User = v.object({
  id, email: nullable(v.string()), walletAddress: nullable(v.string()), googleId: nullable(v.string()),
  authMethod: v.picklist(['email', 'wallet', 'google']), firstName: nullable(v.string()), lastName: nullable(v.string()),
  profileImageUrl: nullable(v.string()), balance: v.string(), emailVerified: v.boolean(), createdAt: time,
})
const SignedIn = v.object({ user: User })
/** a first factor passed and the account has a second one: the pending sign-in waits for it */
const SecondStep = v.object({ secondFactor: v.object({ required: v.literal(true), methods: v.array(v.picklist(['totp', 'recovery-code', 'passkey'])) }) })
const SignInAnswer = v.union([SignedIn, SecondStep])
const WebAuthnOptions = v.pipe(v.looseObject({ challenge: v.string() }), v.description('WebAuthn options as @simplewebauthn/browser takes them (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON)'))

const Counters = v.object({ forwarded: v.number(), replied: v.number(), dropped: v.number(), failed: v.number(), spam: v.number() })
const Alias = v.object({
  id, userId: id, alias: v.string(), domain: v.string(), forwardTo: nullable(v.string()), lastForwardTo: nullable(v.string()),
  active: v.boolean(), encryptForwarded: v.boolean(), spamHandling: v.picklist(SPAM_HANDLINGS), notes: nullable(v.string()), madeBy: nullable(v.string()), hostname: nullable(v.string()),
  createdAt: time, updatedAt: time, counters: Counters,
})
const DomainRecord = v.object({
  purpose: v.picklist(['ownership', 'mx', 'spf', 'dkim', 'dmarc']), type: v.string(), name: v.string(), value: v.string(),
  state: v.picklist(['unchecked', 'ok', 'missing', 'wrong']), found: v.array(v.string()),
})
const CustomDomain = v.object({
  id, domain: v.string(), status: v.picklist(['pending', 'active']), catchAll: v.boolean(), defaultTarget: nullable(v.string()),
  records: v.array(DomainRecord), checkedAt: nullable(time), createdAt: time,
})
const ApiKey = v.object({ id, name: v.string(), prefix: v.string(), createdAt: time, lastUsedAt: nullable(v.string()) })
const SmtpPorts = v.object({ starttls: v.number(), tls: v.number() })
const Folder = v.object({
  id, path: v.string(), specialUse: nullable(v.string()), enabled: v.boolean(), messageCount: v.number(), unseenCount: v.number(), stored: v.number(), unread: v.number(),
})
const Provider = v.object({
  id, provider: v.string(), email: v.string(), username: v.string(), host: nullable(v.string()), port: nullable(v.number()), secure: nullable(v.boolean()), isActive: v.boolean(),
  state: v.string(), progressDone: v.number(), progressTotal: v.number(), lastError: nullable(v.string()), needsAttention: v.boolean(), stalled: v.boolean(),
  lastSyncAt: nullable(time), createdAt: time, updatedAt: time, folders: v.array(Folder),
  smtp: nullable(v.object({ host: v.string(), port: v.number(), security: v.picklist(['tls', 'starttls']), preset: v.boolean(), username: nullable(v.string()) })),
})
const EmailEntries = {
  id, providerId: id, folderId: id, messageId: nullable(v.string()), threadId: v.string(), subject: v.string(),
  fromAddress: v.string(), fromName: v.string(), toAddress: v.string(), receivedAt: time, size: v.number(), isRead: v.boolean(),
  isStarred: v.boolean(), hasAttachments: v.boolean(), preview: v.string(),
}
const EmailSummary = v.object(EmailEntries)
const Attachment = v.object({ id, filename: v.string(), contentType: v.string(), contentId: nullable(v.string()), size: v.number(), url: v.string() })
const EmailFull = v.object({
  ...EmailEntries, userId: id, ccAddresses: v.string(), bccAddresses: v.string(), replyTo: v.string(), inReplyTo: nullable(v.string()), references: v.array(v.string()),
  body: v.string(), html: nullable(v.string()), attachments: v.array(Attachment), conversationEmails: v.array(EmailSummary), syncedAt: time, createdAt: time,
})
const EncryptionKey = v.object({ id, keyName: v.string(), name: v.string(), publicKey: v.string(), createdAt: time, isDefault: v.boolean() })
const Undelivered = v.object({
  id, kind: v.string(), aliasId: nullable(id), alias: nullable(v.string()), target: v.string(), reason: v.string(), kept: v.boolean(),
  status: v.string(), retries: v.number(), createdAt: time, expiresAt: time,
})
const WebhookFailure = v.object({
  id, aliasId: id, alias: v.string(), target: v.string(), attempts: v.number(), lastError: nullable(v.string()), lastAttemptAt: nullable(time), nextRetryAt: nullable(time),
})
const Process = v.object({ alive: v.boolean(), instances: v.number(), lastBeatAt: nullable(time) })
const Passkey = v.object({ id, name: v.string(), createdAt: day, lastUsedAt: nullable(day) })
const UsernameView = v.object({ username: nullable(v.string()), subdomain: nullable(v.string()) })
const RecoveryCodes = v.object({ recoveryCodes: v.array(v.string()) })
const redirect = (words: string) => ({ status: 302 as const, description: words })
const Contact = v.object({
  id, address: v.string(), name: nullable(v.string()), firstMailAt: time, lastMailAt: nullable(time), forwarded: v.number(), blocked: v.number(), blockedAt: nullable(time),
})
const SenderBlockSettings = v.object({ unsubscribeAction: v.picklist(['pause', 'block']), blockedReply: v.picklist(['refuse', 'drop']), blockLink: v.boolean() })
const UnsubscribeEvent = v.object({
  id, aliasId: id, alias: v.string(), contact: nullable(v.string()), action: v.picklist(['pause', 'block']), via: v.picklist(['one-click', 'link', 'mailto']), createdAt: time,
})

/**
 * Besides `errors`, the document adds what every route of its kind can answer: 401 and 403 when it
 * needs a session (403: an address not confirmed yet, or the cookie from another Origin), 404 with a
 * path parameter, 400 with a body or query, 403 and 413 on a request with a body.
 */
export const ROUTE_RESPONSES: Record<string, RouteResponses> = {
  'GET /api/health': { ok: { status: 200, description: 'Health', body: v.object({ ok: v.boolean(), db: v.boolean(), queue: v.boolean(), processes: v.record(v.string(), Process) }) }, errors: [503], errorNotes: { 503: 'The database or the queue is down (the body is the same health object)' } },
  'GET /api/stats': { ok: { status: 200, description: 'Figures', body: v.object({ totalUsers: v.number(), totalAliases: v.number() }) }, errors: [] },
  'GET /api/domains': { ok: { status: 200, description: 'Domains; customDomains only when signed in', body: v.object({ domains: v.array(v.string()), customDomains: v.optional(v.array(CustomDomain)) }) }, errors: [] },
  'GET /api/openapi.json': { ok: { status: 200, description: 'This OpenAPI 3.1 document', body: v.looseObject({ openapi: v.literal('3.1.0') }) }, errors: [] },

  'GET /api/auth/session': { ok: { status: 200, description: 'The signed-in user', body: SignedIn }, errors: [401] },
  'GET /api/auth/providers': { ok: { status: 200, description: 'Configured providers', body: v.object({ google: v.boolean(), microsoft: v.boolean() }) }, errors: [] },
  'POST /api/auth/register': { ok: { status: 202, description: 'The verification link is mailed; sign in follows the link', body: withMessage({ email: v.string() }) }, errors: [429] },
  'POST /api/auth/login': { ok: { status: 200, description: 'Signed in (session cookie set), or the second step is needed', body: SignInAnswer }, errors: [401, 429] },
  'POST /api/auth/verify-email': { ok: { status: 200, description: 'Verified and signed in, or the second step is needed', body: SignInAnswer }, errors: [429] },
  'POST /api/auth/resend-verification': {
    ok: { status: 200, description: 'The same answer whether or not a link was sent', body: message('Sent if the address awaits verification') }, errors: [400, 429],
    requestBody: { description: "The address; not read when the session's own address awaits verification", schema: EmailOnlySchema },
  },
  'POST /api/auth/forgot-password': { ok: { status: 200, description: 'The same answer whether or not the address has an account', body: message('Sent if the address has an account') }, errors: [429] },
  'POST /api/auth/reset-password': { ok: { status: 200, description: 'Password changed; every session ended', body: message('Changed') }, errors: [429] },
  'POST /api/auth/confirm-target': { ok: { status: 200, description: 'The target is confirmed', body: withMessage({ email: v.string() }) }, errors: [429] },
  'POST /api/auth/logout': { ok: { status: 200, description: 'Signed out (also without a session)', body: message('Logged out') }, errors: [] },
  'GET /api/auth/wallet/nonce': { ok: { status: 200, description: 'The message to sign', body: v.object({ nonce: v.string(), message: v.string(), expiresAt: time }) }, errors: [429] },
  'POST /api/auth/wallet': { ok: { status: 200, description: 'Signed in, or the second step is needed', body: SignInAnswer }, errors: [401, 429] },
  'GET /api/auth/google': { ok: redirect('To Google sign-in'), errors: [404], errorNotes: { 404: 'Google sign-in is not configured' } },
  'GET /api/auth/google/callback': { ok: redirect('To the app signed in, to the second step, or to /auth?error=… when refused'), errors: [404], errorNotes: { 404: 'Google sign-in is not configured' } },
  'GET /api/auth/second-factor': { ok: { status: 200, description: 'The second factors this sign-in can use', body: v.object({ methods: v.array(v.picklist(['totp', 'recovery-code', 'passkey'])) }) }, errors: [401] },
  'POST /api/auth/second-factor': { ok: { status: 200, description: 'Signed in', body: SignedIn }, errors: [401, 429], errorNotes: { 401: 'A wrong or used code, or no pending sign-in (expired)' } },
  'POST /api/auth/passkey/options': { ok: { status: 200, description: 'WebAuthn authentication options', body: WebAuthnOptions }, errors: [429] },
  'POST /api/auth/passkey': { ok: { status: 200, description: 'Signed in', body: SignedIn }, errors: [401, 429] },
  'GET /api/auth/microsoft': { ok: redirect('To Microsoft sign-in; without a session, to /auth'), errors: [404], errorNotes: { 404: 'Microsoft is not configured' }, redirectsSignedOut: true },
  'GET /api/auth/microsoft/callback': { ok: redirect('To /inbox/settings with status=success or status=error; without a session, to /auth'), errors: [404], errorNotes: { 404: 'Microsoft is not configured' }, redirectsSignedOut: true },

  'GET /api/account-stats': { ok: { status: 200, description: 'Figures', body: v.object({ aliases: v.number(), forwarded: v.number(), replied: v.number(), keys: v.number(), jobs: v.number() }) }, errors: [] },
  'DELETE /api/account': { ok: { status: 200, description: 'Deleted; signed out', body: message('Account deleted') }, errors: [] },
  'GET /api/account/totp': { ok: { status: 200, description: 'Two-factor state', body: v.object({ enabled: v.boolean(), recoveryCodesLeft: v.number(), passwordRequired: v.boolean() }) }, errors: [] },
  'POST /api/account/totp': { ok: { status: 201, description: 'A pending secret', body: v.object({ secret: v.string(), otpauthUri: v.string() }) }, errors: [409] },
  'POST /api/account/totp/confirm': { ok: { status: 200, description: 'On; the recovery codes, shown once', body: RecoveryCodes }, errors: [409, 429] },
  'POST /api/account/totp/passkey-options': { ok: { status: 200, description: 'WebAuthn options to confirm turning two-factor off with a passkey', body: WebAuthnOptions }, errors: [] },
  'DELETE /api/account/totp': { ok: { status: 200, description: 'Off', body: message('Off') }, errors: [409, 429] },
  'POST /api/account/recovery-codes': { ok: { status: 201, description: 'The new recovery codes, shown once', body: RecoveryCodes }, errors: [409] },
  'GET /api/account/sessions': { ok: { status: 200, description: 'Sessions', body: v.object({ sessions: v.array(v.object({ id, current: v.boolean(), browser: v.string(), os: v.string(), createdAt: day, lastSeenAt: day })) }) }, errors: [] },
  'POST /api/account/sessions/end-others': { ok: { status: 200, description: 'How many ended', body: v.object({ ended: v.number() }) }, errors: [] },
  'DELETE /api/account/sessions/{sessionId}': { ok: { status: 200, description: 'Ended', body: message('Signed out') }, errors: [] },
  'POST /api/account/password': { ok: { status: 200, description: 'Changed; every other session ended', body: withMessage({ endedSessions: v.number() }) }, errors: [409, 429] },
  'GET /api/account/passkeys': { ok: { status: 200, description: 'Passkeys', body: v.object({ passkeys: v.array(Passkey) }) }, errors: [] },
  'POST /api/account/passkeys/options': { ok: { status: 200, description: 'WebAuthn registration options', body: WebAuthnOptions }, errors: [] },
  'POST /api/account/passkeys': { ok: { status: 201, description: 'Added', body: v.object({ passkey: Passkey }) }, errors: [409] },
  'PATCH /api/account/passkeys/{passkeyId}': { ok: { status: 200, description: 'Renamed', body: v.object({ passkey: Passkey }) }, errors: [] },
  'DELETE /api/account/passkeys/{passkeyId}': { ok: { status: 200, description: 'Removed', body: message('Passkey removed') }, errors: [] },

  'GET /api/aliases/{userId}': { ok: { status: 200, description: 'Aliases', body: v.object({ aliases: v.array(Alias) }) }, errors: [], template: aliasesTemplate('user') },
  'GET /api/aliases/{userId}/with-smtp': { ok: { status: 200, description: 'Aliases with SMTP credentials', body: v.object({ aliases: v.array(v.object({ id, alias: v.string(), domain: v.string(), createdAt: time })) }) }, errors: [] },
  'POST /api/aliases/{userId}': { ok: { status: 201, description: 'Created', body: v.object({ alias: Alias }) }, errors: [409, 429], template: aliasesTemplate('user') },
  'PUT /api/aliases/{aliasId}': { ok: { status: 200, description: 'Changed', body: v.object({ alias: Alias }) }, errors: [409], template: aliasesTemplate('alias') },
  'PATCH /api/aliases/{aliasId}/toggle': { ok: { status: 200, description: 'Paused or resumed', body: withMessage({ alias: Alias }) }, errors: [] },
  'DELETE /api/aliases/{aliasId}': { ok: { status: 200, description: 'Deleted', body: message('Alias deleted') }, errors: [], template: aliasesTemplate('alias') },
  'GET /api/aliases/{aliasId}/webhook-secret': { ok: { status: 200, description: 'The secret', body: v.object({ secret: v.string() }) }, errors: [] },
  'POST /api/aliases/{aliasId}/webhook-secret/rotate': { ok: { status: 200, description: 'The new secret', body: v.object({ secret: v.string() }) }, errors: [] },

  'GET /api/account/username': { ok: { status: 200, description: 'The username and subdomain (null until chosen)', body: UsernameView }, errors: [] },
  'PUT /api/account/username': { ok: { status: 200, description: 'Chosen', body: UsernameView }, errors: [409], errorNotes: { 409: 'The username is taken, or this account chose one already' } },
  'POST /api/domains': { ok: { status: 201, description: 'Added, pending', body: v.object({ domain: CustomDomain }) }, errors: [409] },
  'POST /api/domains/{domainId}/check': { ok: { status: 200, description: 'Checked', body: v.object({ domain: CustomDomain }) }, errors: [409] },
  'PATCH /api/domains/{domainId}': { ok: { status: 200, description: 'Changed', body: v.object({ domain: CustomDomain }) }, errors: [] },
  'DELETE /api/domains/{domainId}': { ok: { status: 200, description: 'Removed', body: message('Domain removed') }, errors: [] },

  'GET /api/api-keys': { ok: { status: 200, description: 'Keys', body: v.object({ apiKeys: v.array(ApiKey) }) }, errors: [] },
  'POST /api/api-keys': { ok: { status: 201, description: 'Created; the key shown this once', body: v.object({ apiKey: v.object({ id, name: v.string(), key: v.string(), prefix: v.string(), createdAt: time }) }) }, errors: [409] },
  'DELETE /api/api-keys/{apiKeyId}': { ok: { status: 200, description: 'Revoked', body: message('API key revoked') }, errors: [] },
  'GET /api/app-alias-settings': { ok: { status: 200, description: 'Settings and choices', body: v.object({ settings: v.object({ domain: v.string(), nameForm: v.picklist(['words', 'characters']), forwardTo: nullable(v.string()), domains: v.array(v.string()), targets: v.array(v.string()), accountEmail: nullable(v.string()) }) }) }, errors: [] },
  'PUT /api/app-alias-settings': { ok: { status: 200, description: 'Saved', body: message('Saved') }, errors: [] },

  'GET /api/alias-contacts/{aliasId}': { ok: { status: 200, description: 'Contacts, most recent mail first', body: v.object({ contacts: v.array(Contact) }) }, errors: [] },
  'PATCH /api/alias-contacts/{aliasId}/{contactId}': { ok: { status: 200, description: 'Changed', body: v.object({ contact: Contact }) }, errors: [] },
  'GET /api/sender-block-settings': { ok: { status: 200, description: 'Settings', body: v.object({ settings: SenderBlockSettings }) }, errors: [] },
  'PUT /api/sender-block-settings': { ok: { status: 200, description: 'Saved', body: message('Saved') }, errors: [] },
  'GET /api/unsubscribe-events': { ok: { status: 200, description: 'Open events, newest first', body: v.object({ events: v.array(UnsubscribeEvent) }) }, errors: [] },
  'POST /api/unsubscribe-events/{eventId}/undo': { ok: { status: 200, description: 'Undone', body: message('Undone') }, errors: [], errorNotes: { 404: 'Not found, not yours, or undone or dismissed already' } },
  'DELETE /api/unsubscribe-events/{eventId}': { ok: { status: 200, description: 'Dismissed', body: message('Dismissed') }, errors: [], errorNotes: { 404: 'Not found, not yours, or undone or dismissed already' } },
  'GET /api/unsubscribe/{token}': { ok: redirect('To the confirmation page /unsubscribe/{token}') , errors: [] },
  'GET /api/unsubscribe/{token}/details': { ok: { status: 200, description: 'What the link does, or why it would be refused', body: v.object({ link: v.union([v.object({ status: v.literal('ok'), action: v.picklist(['pause', 'block']), alias: v.string(), contact: nullable(v.string()) }), v.object({ status: v.picklist(['invalid', 'expired', 'used', 'gone']) })]) }) }, errors: [] },
  'POST /api/unsubscribe/{token}': { ok: { status: 200, description: 'Done', body: withMessage({ action: v.picklist(['pause', 'block']), alias: v.string(), contact: nullable(v.string()) }) }, errors: [400, 404, 410, 429], errorNotes: { 400: 'The body is not List-Unsubscribe=One-Click', 404: 'The link is not ours, or its alias or sender is gone', 410: 'The link expired, or was used already', 429: 'Too many refused link uses from this address (token-ip), and this use was refused too; a link that works is always honoured' } },
  'GET /api/forward-targets': { ok: { status: 200, description: 'Targets', body: v.object({ targets: v.array(v.object({ email: v.string(), confirmed: v.boolean(), held: v.number(), bounces: v.number(), disabled: v.boolean(), lastBounce: nullable(v.object({ code: v.number(), reason: v.string() })) })) }) }, errors: [] },
  'POST /api/forward-targets/resend': { ok: { status: 200, description: 'Sent', body: message('Sent') }, errors: [404, 429] },
  'POST /api/forward-targets/enable': { ok: { status: 200, description: 'On again (or was not stopped)', body: message('On again') }, errors: [404] },
  'POST /api/forward-targets/test': { ok: { status: 202, description: 'Queued for the delivery process; statusUrl (also the Location header) tells its outcome', body: withMessage({ jobId: id, statusUrl: v.string() }) }, errors: [404, 429], errorNotes: { 404: 'Not a confirmed target of this user' } },
  'GET /api/forward-targets/test/{testMailId}': { ok: { status: 200, description: "The test mail's outcome, with the server's code when refused", body: withMessage({ status: v.picklist(['sending', 'queued', 'taken', 'refused', 'failed']), code: nullable(v.number()) }) }, errors: [404], errorNotes: { 404: 'No test mail of this user by that id' } },
  'GET /api/bounces': { ok: { status: 200, description: 'Notices and threshold', body: v.object({ notices: v.array(v.object({ id: v.string(), createdAt: v.string(), entries: v.array(v.object({ alias: v.string(), target: v.string(), code: v.number(), reason: v.string(), count: v.number(), disabled: v.boolean(), reply: v.optional(v.boolean()) })) })), threshold: v.number() }) }, errors: [] },
  'PUT /api/bounces': { ok: { status: 200, description: 'Saved', body: withMessage({ threshold: v.number() }) }, errors: [400] },
  'DELETE /api/bounces/{noticeId}': { ok: { status: 200, description: 'Dismissed', body: message('Notice dismissed') }, errors: [] },

  'POST /api/smtp-credentials': { ok: { status: 201, description: 'Created; the password shown', body: v.object({ credential: v.object({ id, aliasId: id, username: v.string(), password: v.string(), host: v.string(), ports: SmtpPorts }) }) }, errors: [404, 409] },
  'GET /api/smtp-credentials/alias/{aliasId}': { ok: { status: 200, description: 'Credentials and the server', body: v.object({ credentials: v.array(v.object({ id, aliasId: id, username: v.string(), active: v.boolean(), createdAt: time })), host: v.string(), ports: SmtpPorts }) }, errors: [] },
  'GET /api/smtp-credentials/alias/{aliasId}/password': { ok: { status: 200, description: 'The password', body: v.object({ success: v.literal(true), password: v.string() }) }, errors: [] },
  'PATCH /api/smtp-credentials/{credentialId}/alias/{aliasId}/regenerate': { ok: { status: 200, description: 'The new password', body: v.object({ credential: v.object({ id, aliasId: id, username: v.string(), active: v.boolean(), createdAt: time, password: v.string() }) }) }, errors: [] },
  'DELETE /api/smtp-credentials/{credentialId}/alias/{aliasId}': { ok: { status: 200, description: 'Deleted', body: message('SMTP credentials deleted') }, errors: [] },

  'POST /api/email-jobs': { ok: { status: 201, description: 'Queued; it can be cancelled until it starts sending', body: v.object({ jobId: id, canUndo: v.boolean() }) }, errors: [429] },
  'GET /api/email-jobs/{jobId}/status': { ok: { status: 200, description: 'Status', body: v.object({ success: v.literal(true), status: v.string(), currentRetries: v.number(), maxRetries: v.number(), lastError: nullable(v.string()), messageId: nullable(v.string()), canUndo: v.boolean() }) }, errors: [] },
  'POST /api/email-jobs/{jobId}/cancel': { ok: { status: 200, description: 'Cancelled', body: v.object({ success: v.literal(true), message: v.string() }) }, errors: [409] },

  'GET /api/undelivered': { ok: { status: 200, description: 'Undelivered messages', body: v.object({ undelivered: v.array(Undelivered) }) }, errors: [] },
  'POST /api/undelivered/{undeliveredId}/retry': { ok: { status: 202, description: 'Sending again', body: withMessage({ undelivered: Undelivered }) }, errors: [409], template: undeliveredTemplate('retry') },
  'DELETE /api/undelivered/{undeliveredId}': { ok: { status: 200, description: 'Deleted', body: message('Undelivered message deleted') }, errors: [] },
  'GET /api/undelivered/webhooks': { ok: { status: 200, description: 'Failing deliveries', body: v.object({ failures: v.array(WebhookFailure) }) }, errors: [] },
  'POST /api/undelivered/webhooks/{deliveryId}/retry': { ok: { status: 200, description: 'Due now', body: message('Retrying') }, errors: [409], errorNotes: { 409: 'The delivery is being tried right now' } },
  'DELETE /api/undelivered/webhooks/{deliveryId}': { ok: { status: 200, description: 'Dropped', body: message('Webhook delivery dropped') }, errors: [409], errorNotes: { 409: 'The delivery has just finished' }, template: undeliveredTemplate('drop') },

  'GET /api/email-providers': { ok: { status: 200, description: 'Mailboxes', body: v.object({ success: v.literal(true), providers: v.array(Provider) }) }, errors: [] },
  'POST /api/email-providers': { ok: { status: 202, description: 'Stored; the first sync is queued', body: withMessage({ provider: Provider, jobId: v.string() }) }, errors: [409] },
  'DELETE /api/email-providers/{providerId}': { ok: { status: 200, description: 'Removed', body: message('Email account removed') }, errors: [] },
  'PATCH /api/email-providers/{providerId}': { ok: { status: 202, description: 'Saved; a sync is queued, whose login is the check', body: withMessage({ provider: Provider, jobId: v.string() }) }, errors: [] },
  'POST /api/email-providers/{providerId}/sync': { ok: { status: 202, description: 'Queued', body: withMessage({ jobId: v.string(), provider: Provider }) }, errors: [] },
  'GET /api/email-providers/{providerId}/sync-jobs/{syncJobId}': { ok: { status: 200, description: 'The job', body: v.object({ success: v.literal(true), jobId: v.string(), providerId: id, status: v.string(), syncResult: nullable(v.object({ newEmailsCount: v.number() })), error: nullable(v.string()), provider: Provider }) }, errors: [] },
  'PUT /api/drafts/{draftId}': { ok: { status: 200, description: 'Saved here; written to the account\'s Drafts folder by its write-back job (savedVersion catches up with version)', body: v.object({ draft: v.object({ id, providerId: id, version: v.number(), savedVersion: v.number(), lastError: nullable(v.string()) }) }) }, errors: [] },
  'DELETE /api/drafts/{draftId}': { ok: { status: 200, description: 'Discarded', body: message('Draft discarded') }, errors: [] },
  'PUT /api/email-providers/{providerId}/smtp': { ok: { status: 200, description: 'Saved: the account\'s sending settings (a user name, never a password)', body: withMessage({ provider: Provider }) }, errors: [] },
  'PATCH /api/email-providers/{providerId}/folders': { ok: { status: 200, description: 'Changed; jobId of the sync queued when a folder is turned on', body: withMessage({ jobId: nullable(v.string()), provider: Provider }) }, errors: [] },
  'GET /api/emails': { ok: { status: 200, description: 'A page of mail; with by=conversation, the newest message of each conversation and total, the number of conversations; with q, only what it matches (more instead of total: the page came from the newest mail and more may follow, uncounted), and unsearched: the accounts whose bodies could not be searched this time', body: v.object({ success: v.literal(true), emails: v.array(EmailSummary), total: v.optional(v.number()), more: v.optional(v.literal(true)), unsearched: v.optional(v.array(v.object({ providerId: v.string(), email: v.string(), reason: v.string() }))) }) }, errors: [404], errorNotes: { 404: 'The folder is not found or not yours' } },
  'GET /api/emails/counts': { ok: { status: 200, description: 'Counts', body: v.object({ success: v.literal(true), total: v.number(), unread: v.number(), starred: v.number(), bytes: v.number() }) }, errors: [404], errorNotes: { 404: 'The folder is not found or not yours' } },
  'GET /api/emails/events': { ok: { status: 200, description: 'An event stream: `event: mail` when stored mail changed', contentType: 'text/event-stream', body: { type: 'string' } }, errors: [429, 503] },
  'GET /api/emails/{emailId}': { ok: { status: 200, description: 'The message with its conversation', body: v.object({ success: v.literal(true), email: EmailFull }) }, errors: [] },
  'PATCH /api/emails/{emailId}': { ok: { status: 200, description: 'Changed', body: v.object({ success: v.literal(true), message: v.string() }) }, errors: [] },
  'DELETE /api/emails/{emailId}': { ok: { status: 200, description: 'Deleted (Undo for 10 s)', body: v.object({ success: v.literal(true), message: v.string() }) }, errors: [] },
  'POST /api/emails/{emailId}/move': { ok: { status: 200, description: 'Hidden now, moved on the IMAP server after the undo window', body: v.object({ success: v.literal(true), message: v.string() }) }, errors: [], errorNotes: { 404: "Not found, not yours, or the folder is not another folder of the message's account" } },
  'POST /api/emails/{emailId}/restore': { ok: { status: 200, description: 'Restored', body: v.object({ success: v.literal(true), message: v.string() }) }, errors: [], errorNotes: { 404: 'Not found, not yours, or its move to Trash reached the server already' } },
  'GET /api/emails/{emailId}/attachments/{attachmentId}': { ok: { status: 200, description: 'The attachment (its own content type; unsafe types as application/octet-stream)', contentType: '*/*', body: { type: 'string', contentMediaType: 'application/octet-stream' } }, errors: [] },

  'GET /api/encryption-keys': { ok: { status: 200, description: 'Keys', body: v.object({ keys: v.array(EncryptionKey) }) }, errors: [] },
  'POST /api/encryption-keys': { ok: { status: 201, description: 'Added', body: v.object({ success: v.literal(true), key: EncryptionKey }) }, errors: [429] },
  'GET /api/encryption-keys/{keyId}/encrypted-private-key': { ok: { status: 200, description: 'The encrypted private key', body: v.object({ keyName: v.string(), publicKey: v.string(), encryptedPrivateKey: v.string() }) }, errors: [] },
  'POST /api/encryption-keys/{keyId}/download': { ok: { status: 200, description: 'The private key', body: v.object({ keyName: v.string(), publicKey: v.string(), privateKey: v.string(), createdAt: time, isDefault: v.boolean() }) }, errors: [429] },
  'PATCH /api/encryption-keys/{keyId}': { ok: { status: 200, description: 'Changed', body: v.object({ success: v.literal(true), key: EncryptionKey }) }, errors: [] },
  'DELETE /api/encryption-keys/{keyId}': { ok: { status: 200, description: 'Deleted', body: v.object({ success: v.literal(true) }) }, errors: [] },
  'POST /api/decrypt-auto': { ok: { status: 200, description: 'The text', body: v.object({ success: v.literal(true), decryptedText: v.string(), message: v.string() }) }, errors: [404, 429] },
  'POST /api/decrypt-manual': { ok: { status: 200, description: 'The text', body: v.object({ success: v.literal(true), decryptedText: v.string(), message: v.string() }) }, errors: [429] },
}

/** `/aliases/{userId}` (list, create) and `/aliases/{aliasId}` (change, delete) are one template. */
function aliasesTemplate(names: 'user' | 'alias'): RouteResponses['template'] {
  return {
    path: '/aliases/{id}',
    params: { id: names === 'user'
      ? { description: "Here: the signed-in user's id (Settings, API keys shows it). The same template with an alias's id changes or deletes that alias.", schema: { type: 'string', format: 'uuid' } }
      : { description: "Here: the alias's id. The same template with the user's id lists or creates aliases.", schema: { type: 'string', format: 'uuid' } } },
  }
}

/** `/undelivered/{undeliveredId}/retry` and `/undelivered/webhooks/{deliveryId}` can match the same URL: one template. */
function undeliveredTemplate(use: 'retry' | 'drop'): RouteResponses['template'] {
  return {
    path: '/undelivered/{undeliveredIdOrWebhooks}/{retryOrDeliveryId}',
    params: use === 'retry'
      ? { undeliveredIdOrWebhooks: { description: "Here: the undelivered message's id", schema: { type: 'string', format: 'uuid' } }, retryOrDeliveryId: { description: 'Here: retry', schema: { const: 'retry' } } }
      : { undeliveredIdOrWebhooks: { description: 'Here: webhooks', schema: { const: 'webhooks' } }, retryOrDeliveryId: { description: "Here: the failing webhook delivery's id", schema: { type: 'string', format: 'uuid' } } },
  }
}
