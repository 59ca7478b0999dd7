import { useQuery } from '@tanstack/react-query'
import type { UndeliveredView } from '../../../../shared/undelivered-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

/** Retry and Delete invalidate this key. */
export const undeliveredQueryKey = ['undelivered'] as const

/** While a retry runs the list is polled, so the row leaves (delivered) or comes back (refused) on its own. */
export const RETRY_POLL_MS = 5_000

export async function getUndelivered(): Promise<UndeliveredView[]> {
  const body = await apiGet<{ undelivered: UndeliveredView[] }>('/api/undelivered')
  return body.undelivered
}

export function useUndelivered() {
  return useQuery({
    queryKey: undeliveredQueryKey,
    queryFn: getUndelivered,
    refetchInterval: (query) => (query.state.data?.some((u) => u.status === 'retrying') ? RETRY_POLL_MS : false),
  })
}
