import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'

export function removeDomain(id: string): Promise<{ message: string }> {
  return apiRequest('DELETE', `/api/domains/${encodeURIComponent(id)}`)
}

export function useRemoveDomain() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: removeDomain, onSettled: () => queryClient.invalidateQueries({ queryKey: ['domains'] }) })
}
