import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { aliasesQueryKey } from './get-aliases.ts'

export function deleteAlias(aliasId: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('DELETE', `/api/aliases/${encodeURIComponent(aliasId)}`)
}

export function useDeleteAlias(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteAlias,
    onSettled: () => queryClient.invalidateQueries({ queryKey: aliasesQueryKey(userId) }),
  })
}
