import { apiRequest } from '../../../lib/api-client.ts'
import type { RegisterInput } from '../../../../shared/auth-schemas.ts'

/** The server answers the same for a new and a taken address: check your mail. Nobody is signed in yet. */
export function registerWithEmail(input: RegisterInput): Promise<{ message: string; email: string }> {
  return apiRequest<{ message: string; email: string }>('POST', '/api/auth/register', input)
}
