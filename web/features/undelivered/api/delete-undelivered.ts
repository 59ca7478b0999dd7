import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { undeliveredQueryKey } from './get-undelivered.ts'

export function deleteUndelivered(id: string): Promise<{ message: string }> {
  return apiRequest('DELETE', `/api/undelivered/${encodeURIComponent(id)}`)
}

export function useDeleteUndelivered() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteUndelivered,
    onSettled: () => queryClient.invalidateQueries({ queryKey: undeliveredQueryKey }),
  })
}
