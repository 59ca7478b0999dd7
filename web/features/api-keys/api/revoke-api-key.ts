import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { apiKeysQueryKey } from './get-api-keys.ts'

export function revokeApiKey(id: string): Promise<{ message: string }> {
  return apiRequest('DELETE', `/api/api-keys/${encodeURIComponent(id)}`)
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: revokeApiKey, onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }) })
}
