import { useQuery } from '@tanstack/react-query'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'
import { providersPollInterval } from '../lib/account-status.ts'

/** Every mutation of a connected account refreshes this list. */
export const emailProvidersQueryKey = ['email-providers'] as const

export async function getEmailProviders(): Promise<EmailProviderView[]> {
  return (await apiGet<{ providers: EmailProviderView[] }>('/api/email-providers')).providers
}

/** Asked again every 10 s while an account connects or syncs (a scheduled sync, a reload mid-sync). */
export function useEmailProviders() {
  return useQuery({
    queryKey: emailProvidersQueryKey,
    queryFn: getEmailProviders,
    refetchInterval: (query) => providersPollInterval(query.state.data),
  })
}
