import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { UndeliveredView } from '../../../../shared/undelivered-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { undeliveredQueryKey } from './get-undelivered.ts'

export function retryUndelivered(id: string): Promise<{ message: string; undelivered: UndeliveredView }> {
  return apiRequest('POST', `/api/undelivered/${encodeURIComponent(id)}/retry`)
}

/** Queues the kept copy for its target again; the list then shows it as being sent. */
export function useRetryUndelivered() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: retryUndelivered,
    onSettled: () => queryClient.invalidateQueries({ queryKey: undeliveredQueryKey }),
  })
}
