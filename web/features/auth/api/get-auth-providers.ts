import { useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api-client.ts'

export interface AuthProviders {
  google: boolean
}

/** Which optional sign-in methods the server has configured. */
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
