import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { unsubscribeEventsQueryKey } from './get-unsubscribe-events.ts'

/** Undo (the alias resumes, or the sender is unblocked) or dismiss an event; the aliases and contacts are refetched. */
export function useCloseUnsubscribeEvent() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, undo }: { id: string; undo: boolean }) =>
      undo ? apiRequest<{ message: string }>('POST', `/api/unsubscribe-events/${encodeURIComponent(id)}/undo`) : apiRequest<{ message: string }>('DELETE', `/api/unsubscribe-events/${encodeURIComponent(id)}`),
    onSettled: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: unsubscribeEventsQueryKey }),
      queryClient.invalidateQueries({ queryKey: ['aliases'] }),
      queryClient.invalidateQueries({ queryKey: ['alias-contacts'] }),
    ]),
  })
}
