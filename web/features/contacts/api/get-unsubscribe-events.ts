import { useQuery } from '@tanstack/react-query'
import type { UnsubscribeEventView } from '../../../../shared/sender-block-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const unsubscribeEventsQueryKey = ['unsubscribe-events'] as const

/** What unsubscribe and block links did since the owner last looked (until undone or dismissed). */
export function useUnsubscribeEvents() {
  return useQuery({
    queryKey: unsubscribeEventsQueryKey,
    queryFn: async () => (await apiGet<{ events: UnsubscribeEventView[] }>('/api/unsubscribe-events')).events,
  })
}
