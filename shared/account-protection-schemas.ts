// Request and response shapes of account protection (issue 27): the second factor, recovery
// codes, passkeys and sessions. Shared by the settings and sign-in pages (web/) and the routes
// (api/). Keep this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'
import { RegisterSchema, text } from './auth-schemas.ts'

/** A six-digit code or a recovery code; spaces and dashes are the user's and are ignored. */
export const SecondFactorCodeSchema = v.pipe(
  text('Enter the code from your authenticator app or a recovery code'),
  v.trim(),
  v.nonEmpty('Enter the code from your authenticator app or a recovery code'),
  v.maxLength(64, 'That is not a code from your authenticator app or a recovery code'),
)

export const CodeSchema = v.object({ code: SecondFactorCodeSchema })
export type CodeInput = v.InferOutput<typeof CodeSchema>


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

/** Turning the second factor off: the password, or a fresh assertion of one of the account's passkeys, and a code. */
export const DisableTotpSchema = v.object({
  password: v.pipe(text('Password is required'), v.maxLength(1024, 'Wrong password')),
  passkey: v.optional(CredentialResponseSchema),
  code: SecondFactorCodeSchema,
})
export type DisableTotpInput = v.InferOutput<typeof DisableTotpSchema>

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

/** Changing the password while signed in: the current one, and the new one (the reset's rules). */
export const ChangePasswordSchema = v.object({
  currentPassword: v.pipe(text('Enter your current password'), v.nonEmpty('Enter your current password'), v.maxLength(1024, 'Wrong password')),
  password: RegisterSchema.entries.password,
})
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordSchema>

// The browser form adds a confirmation field; the server never sees it.
export const ChangePasswordFormSchema = v.pipe(
  v.object({ ...ChangePasswordSchema.entries, confirmPassword: text('Passwords do not match') }),
  v.forward(v.partialCheck([['password'], ['confirmPassword']], (input) => input.password === input.confirmPassword, 'Passwords do not match'), ['confirmPassword']),
)
