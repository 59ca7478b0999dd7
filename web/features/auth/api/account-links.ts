// The account links the service mails (verify the address, reset the password, confirm a forward
// target) and the requests that send them again.
import type { SessionUser } from '../../../../shared/auth-schemas.ts'
import type { SecondFactorRequired } from '../../../../shared/account-protection-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'

export interface Notice { message: string }

/** The signed-in user, or null when the account asks for its second factor next (an older link of an account that turned it on since). */
export async function verifyEmail(token: string): Promise<SessionUser | null> {
  const body = await apiRequest<{ user: SessionUser } | SecondFactorRequired>('POST', '/api/auth/verify-email', { token })
  return 'user' in body ? body.user : null
}

/** Signed in and unverified: the session's address; otherwise the address given. */
export const resendVerification = (email?: string) => apiRequest<Notice>('POST', '/api/auth/resend-verification', email ? { email } : {})

export const forgotPassword = (email: string) => apiRequest<Notice>('POST', '/api/auth/forgot-password', { email })

export const resetPassword = (token: string, password: string) => apiRequest<Notice>('POST', '/api/auth/reset-password', { token, password })

export const confirmForwardTarget = (token: string) => apiRequest<Notice & { email: string }>('POST', '/api/auth/confirm-target', { token })
