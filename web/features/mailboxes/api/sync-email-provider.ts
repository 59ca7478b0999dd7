import { useMutation, type QueryClient } from '@tanstack/react-query'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'

/**
 * Spec §7: cached e-mail lists, counts and storage figures are refreshed after a sync. They
 * belong to the inbox, whose query keys start with 'emails'.
 */
export function invalidateMailQueries(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('emails') })
}

/** Queues a sync and answers at once with its job, which the page then polls. */
export function syncEmailProvider(providerId: string): Promise<{ jobId: string; provider: EmailProviderView | null }> {
  return apiRequest('POST', `/api/email-providers/${encodeURIComponent(providerId)}/sync`)
}

export function useSyncEmailProvider() {
  return useMutation({ mutationFn: syncEmailProvider })
}
