import { apiGetOrNull, SESSION_URL } from '../../../lib/api-client.ts'
import type { SessionUser } from '../../../../shared/auth-schemas.ts'

export const SESSION_QUERY_KEY = ['auth', 'session'] as const

/** The signed-in user, or null when nobody is signed in (401). */
export async function getSession(): Promise<SessionUser | null> {
  const body = await apiGetOrNull<{ user: SessionUser }>(SESSION_URL)
  return body?.user ?? null
}
