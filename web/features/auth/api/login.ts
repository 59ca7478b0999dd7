import { apiRequest } from '../../../lib/api-client.ts'
import type { LoginInput, SessionUser } from '../../../../shared/auth-schemas.ts'

export async function loginWithEmail(input: LoginInput): Promise<SessionUser> {
  const { user } = await apiRequest<{ user: SessionUser }>('POST', '/api/auth/login', input)
  return user
}
