// Request and response shapes of account protection (issue 27): the second factor, recovery
// codes, passkeys and sessions. Shared by the settings and sign-in pages (web/) and the routes
// (api/). Keep this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { text } from './auth-schemas.ts'

/** A six-digit code or a recovery code; spaces and dashes are the user's and are ignored. */
export const SecondFactorCodeSchema = v.pipe(
  text('Enter the code from your authenticator app or a recovery code'),
  v.trim(),
  v.nonEmpty('Enter the code from your authenticator app or a recovery code'),
  v.maxLength(64, 'That is not a code from your authenticator app or a recovery code'),
)

export const CodeSchema = v.object({ code: SecondFactorCodeSchema })
export type CodeInput = v.InferOutput<typeof CodeSchema>

export const DisableTotpSchema = v.object({
  password: v.pipe(text('Password is required'), v.maxLength(1024, 'Wrong password')),
  code: SecondFactorCodeSchema,
})
export type DisableTotpInput = v.InferOutput<typeof DisableTotpSchema>

export type SecondFactorMethod = 'totp' | 'recovery-code' | 'passkey'

/** What a first factor answers when a second one is needed. */
export interface SecondFactorRequired {
  secondFactor: { required: true; methods: SecondFactorMethod[] }
}

export interface TotpStatus {
  enabled: boolean
  recoveryCodesLeft: number
  /** whether turning it off asks for the password (accounts that have one) */
  passwordRequired: boolean
}

export interface TotpEnrolment {
  secret: string
  otpauthUri: string
}

export interface SessionInfo {
  id: string
  current: boolean
  browser: string
  os: string
  /** YYYY-MM-DD (UTC): sessions are shown to the day */
  createdAt: string
  lastSeenAt: string
}

export const PasskeyNameSchema = v.pipe(
  text('Give the passkey a name'),
  v.trim(),
  v.nonEmpty('Give the passkey a name'),
  v.maxLength(100, 'A passkey name is at most 100 characters'),
)

/** What @simplewebauthn/browser hands back (checked in depth by @simplewebauthn/server). */
const CredentialResponseSchema = v.looseObject({
  id: v.pipe(v.string(), v.maxLength(1024)),
  rawId: v.pipe(v.string(), v.maxLength(1024)),
  type: v.literal('public-key'),
  response: v.looseObject({}),
})

export const AddPasskeySchema = v.object({ name: PasskeyNameSchema, response: CredentialResponseSchema })
export const RenamePasskeySchema = v.object({ name: PasskeyNameSchema })
export const PasskeyAssertionSchema = v.object({ response: CredentialResponseSchema })

export interface PasskeyInfo {
  id: string
  name: string
  /** YYYY-MM-DD (UTC) */
  createdAt: string
  lastUsedAt: string | null
}
