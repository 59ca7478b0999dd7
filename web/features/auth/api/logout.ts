import { apiRequest } from '../../../lib/api-client.ts'

/** Ends the session on the server. Failures are ignored: the browser signs out regardless. */
export async function logout(): Promise<void> {
  try {
    await apiRequest<{ message: string }>('POST', '/api/auth/logout')
  } catch (error) {
    console.warn('Logout request failed', error)
  }
}
