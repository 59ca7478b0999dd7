import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { UsernameView } from '../../../../shared/domain-schemas.ts'
import { apiGet, apiRequest } from '../../../lib/api-client.ts'

export const usernameQueryKey = ['account', 'username'] as const

export function useUsername() {
  return useQuery({ queryKey: usernameQueryKey, queryFn: () => apiGet<UsernameView>('/api/account/username') })
}

/** Chosen once: the server refuses a second choice. */
export function useChooseUsername() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (username: string) => apiRequest<UsernameView>('PUT', '/api/account/username', { username }),
    onSuccess: (view) => queryClient.setQueryData(usernameQueryKey, view),
  })
}
