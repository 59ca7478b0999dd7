// The user's connected mailboxes, read by the inbox (sidebar, account filter) and managed on
// /inbox/settings: one cache entry for both, so a change on one page shows on the other.
import { useQuery } from '@tanstack/react-query'
import type { EmailProviderView, SyncJobView } from '../../shared/email-provider-schemas.ts'
import { apiGet, apiRequest } from './api-client.ts'

/** Every change to a connected account refreshes this list. */
export const emailProvidersKey = ['email-providers'] as const

export const EMAIL_PROVIDERS_URL = '/api/email-providers'

export async function getEmailProviders(): Promise<EmailProviderView[]> {
  return (await apiGet<{ providers: EmailProviderView[] }>(EMAIL_PROVIDERS_URL)).providers
}

export function useEmailProviders(refetchInterval?: (providers: EmailProviderView[] | undefined) => number | false) {
  return useQuery({
    queryKey: emailProvidersKey,
    queryFn: getEmailProviders,
    refetchInterval: (query) => (refetchInterval ? refetchInterval(query.state.data) : false),
  })
}

/** Queues a sync and answers at once with its job. */
export function syncEmailProvider(providerId: string): Promise<{ jobId: string; provider: EmailProviderView | null }> {
  return apiRequest('POST', `/api/email-providers/${encodeURIComponent(providerId)}/sync`)
}

export function getSyncJob(providerId: string, jobId: string): Promise<SyncJobView> {
  return apiGet<SyncJobView>(`/api/email-providers/${encodeURIComponent(providerId)}/sync-jobs/${encodeURIComponent(jobId)}`)
}
