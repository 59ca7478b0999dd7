import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { DisableTotpInput } from '../../../../shared/account-protection-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { TOTP_STATUS_KEY } from './get-totp-status.ts'

export function disableTotp(input: DisableTotpInput) {
  return apiRequest<{ message: string }>('DELETE', '/api/account/totp', input)
}

export function useDisableTotp() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: disableTotp, onSuccess: () => queryClient.invalidateQueries({ queryKey: TOTP_STATUS_KEY }) })
}
