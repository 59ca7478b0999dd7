import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ChangePasswordInput } from '../../../../shared/account-protection-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { SESSIONS_KEY } from './get-sessions.ts'

/** Every other session ends with it. */
export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => apiRequest<{ message: string; endedSessions: number }>('POST', '/api/account/password', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  })
}
