import { apiGetOrNull, apiRequest } from '../../../lib/api-client.ts'
import type { SessionUser } from '../../../../shared/auth-schemas.ts'
import type { SecondFactorMethod } from '../../../../shared/account-protection-schemas.ts'

/** The methods this browser's pending sign-in can use, or null when there is none (it expired). */
export async function getPendingSignIn(): Promise<{ methods: SecondFactorMethod[] } | null> {
  return apiGetOrNull<{ methods: SecondFactorMethod[] }>('/api/auth/second-factor')
}

export async function submitSecondFactor(code: string): Promise<SessionUser> {
  const { user } = await apiRequest<{ user: SessionUser }>('POST', '/api/auth/second-factor', { code })
  return user
}
