import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { TOTP_STATUS_KEY } from './get-totp-status.ts'

/** Ten new codes; the old ones stop working. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest<{ recoveryCodes: string[] }>('POST', '/api/account/recovery-codes'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOTP_STATUS_KEY }),
  })
}
