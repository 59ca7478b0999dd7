import { useMutation } from '@tanstack/react-query'

/**
 * The reveal call has its own error texts, so it reads the response itself instead of
 * going through apiRequest. A plain fetch, never a cached query: the password must not outlive
 * the 30 seconds it is on screen.
 */
export async function getSmtpPassword(aliasId: string): Promise<string> {
  const res = await fetch(`/api/smtp-credentials/alias/${encodeURIComponent(aliasId)}/password`, {
    credentials: 'include',
    headers: { Accept: 'application/json' },
  })
  if (!res.ok) throw new Error(`Failed to fetch password: ${res.status}`)
  if (!res.headers.get('content-type')?.includes('application/json')) throw new Error('Server returned non-JSON response')
  const body = (await res.json().catch(() => undefined)) as { success?: unknown; password?: unknown } | undefined
  if (body?.success !== true || typeof body.password !== 'string' || !body.password) {
    throw new Error('No password found or invalid response')
  }
  return body.password
}

export function useRevealSmtpPassword(aliasId: string) {
  return useMutation({ mutationFn: () => getSmtpPassword(aliasId) })
}
