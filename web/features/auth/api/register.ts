import { apiRequest } from '../../../lib/api-client.ts'
import type { RegisterInput, SessionUser } from '../../../../api/auth/auth-schemas.ts'

export async function registerWithEmail(input: RegisterInput): Promise<SessionUser> {
  const { user } = await apiRequest<{ user: SessionUser }>('POST', '/api/auth/register', input)
  return user
}
