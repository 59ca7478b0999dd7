// Request schemas for signing in, shared by the auth forms (web/) and the auth routes (api/).
// Keep this file free of Node-only imports: the browser bundles it.
import * as v from 'valibot'

export const PASSWORD_MIN_LENGTH = 8

/** A string field whose absence reads as empty, so a missing field gets the field's own message. */
export const text = (message: string) => v.optional(v.string(message), '')

const EmailSchema = v.pipe(
  text('Valid email address is required'),
  v.trim(),
  v.nonEmpty('Valid email address is required'),
  v.maxLength(254, 'Valid email address is required'),
  v.email('Valid email address is required'),
)

export const RegisterSchema = v.object({
  email: EmailSchema,
  password: v.pipe(
    text('Password is required'),
    v.minLength(PASSWORD_MIN_LENGTH, 'Password must be at least 8 characters'),
    v.maxLength(1024, 'Password must be at most 1024 characters'),
  ),
})
export type RegisterInput = v.InferOutput<typeof RegisterSchema>

export const LoginSchema = v.object({
  email: EmailSchema,
  password: v.pipe(
    text('Password is required'),
    v.nonEmpty('Password is required'),
    v.maxLength(1024, 'Invalid email or password'),
  ),
})
export type LoginInput = v.InferOutput<typeof LoginSchema>

// The browser form adds a confirmation field; the server never sees it.
export const RegisterFormSchema = v.pipe(
  v.object({ ...RegisterSchema.entries, confirmPassword: text('Passwords do not match') }),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.password === input.confirmPassword,
      'Passwords do not match',
    ),
    ['confirmPassword'],
  ),
)

/** A link's token (the page posts what the mailed URL carried). */
const Token = v.pipe(text('This link is invalid or has expired'), v.trim(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'This link is invalid or has expired'))

export const TokenSchema = v.object({ token: Token })

/** Resend the verification link / forgot password: the address alone. */
export const EmailOnlySchema = v.object({ email: EmailSchema })

export const ResetPasswordSchema = v.object({ token: Token, password: RegisterSchema.entries.password })

// The browser form adds a confirmation field; the server never sees it.
export const ResetPasswordFormSchema = v.pipe(
  v.object({ password: RegisterSchema.entries.password, confirmPassword: text('Passwords do not match') }),
  v.forward(
    v.partialCheck([['password'], ['confirmPassword']], (input) => input.password === input.confirmPassword, 'Passwords do not match'),
    ['confirmPassword'],
  ),
)

export const WalletSignInSchema = v.object({
  walletAddress: v.pipe(text('Wallet address is required'), v.trim(), v.nonEmpty('Wallet address is required')),
  // Both are required to sign in; without them the server answers 401 (an address proves nothing).
  message: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  // base64 of the 64-byte ed25519 signature returned by the wallet's signMessage
  signature: v.optional(v.pipe(v.string(), v.maxLength(200))),
})
export type WalletSignInInput = v.InferOutput<typeof WalletSignInSchema>

/** The user as every auth call returns it. `balance` is a numeric string ("0.00"). */
export interface SessionUser {
  id: string
  email: string | null
  walletAddress: string | null
  googleId: string | null
  authMethod: 'email' | 'wallet' | 'google'
  firstName: string | null
  lastName: string | null
  profileImageUrl: string | null
  balance: string
  /** false while an e-mail account's address is unproven (the app shows the pending screen) */
  emailVerified: boolean
  createdAt: string
}
