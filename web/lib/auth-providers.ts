import { useQuery } from '@tanstack/react-query'
import { apiGet } from './api-client.ts'

export interface AuthProviders {
  google: boolean
  /** Outlook mailboxes can be connected with Microsoft sign-in */
  microsoft: boolean
}

/** Which optional sign-in methods (Google sign-in, Microsoft for Outlook mailboxes) the server has configured. */
export function useAuthProviders() {
  return useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: () => apiGet<AuthProviders>('/api/auth/providers'),
  })
}

/**
 * Google buttons show once the server says Google sign-in is on (hidden while asking, so they
 * never flash and vanish). If the question itself fails they show: the server explains on click.
 */
export function useGoogleEnabled(): boolean {
  const { data, isError } = useAuthProviders()
  return isError || data?.google === true
}
