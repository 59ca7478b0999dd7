import { apiRequest } from '../../../lib/api-client.ts'
import type { LoginInput, SessionUser } from '../../../../shared/auth-schemas.ts'
import type { SecondFactorRequired } from '../../../../shared/account-protection-schemas.ts'

/** The signed-in user, or null when the account asks for its second factor next (/auth/second-factor). */
export async function loginWithEmail(input: LoginInput): Promise<SessionUser | null> {
  const body = await apiRequest<{ user: SessionUser } | SecondFactorRequired>('POST', '/api/auth/login', input)
  return 'user' in body ? body.user : null
}
