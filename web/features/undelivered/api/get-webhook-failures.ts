import { useQuery, type QueryClient } from '@tanstack/react-query'
import type { WebhookFailureView } from '../../../../shared/undelivered-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'
import { undeliveredQueryKey } from './get-undelivered.ts'

/** Retry and Drop invalidate this key (and the Undelivered list, where a failure for good lands). */
export const webhookFailuresQueryKey = ['webhook-failures'] as const

/** Polled while shown: a failing endpoint's next try, and its outcome, happen on the server's clock. */
export const WEBHOOK_FAILURES_POLL_MS = 15_000

/**
 * After a Retry or a Drop. Not awaited: the row's own success toast must run before the refetch
 * removes the row.
 */
export function refetchFailureLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: webhookFailuresQueryKey })
  void queryClient.invalidateQueries({ queryKey: undeliveredQueryKey })
}

export async function getWebhookFailures(): Promise<WebhookFailureView[]> {
  return (await apiGet<{ failures: WebhookFailureView[] }>('/api/undelivered/webhooks')).failures
}

export function useWebhookFailures() {
  return useQuery({
    queryKey: webhookFailuresQueryKey,
    queryFn: getWebhookFailures,
    refetchInterval: (query) => (query.state.data?.length ? WEBHOOK_FAILURES_POLL_MS : false),
  })
}
