import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { TotpEnrolment } from '../../../../shared/account-protection-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { TOTP_STATUS_KEY } from './get-totp-status.ts'
import { SESSIONS_KEY } from './get-sessions.ts'

/** A new pending secret: nothing changes until a code confirms it. */
export function useStartTotp() {
  return useMutation({ mutationFn: () => apiRequest<TotpEnrolment>('POST', '/api/account/totp') })
}

/** Turns the second factor on; the answer holds the recovery codes, shown once. Other sessions end. */
export function useConfirmTotp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (code: string) => apiRequest<{ recoveryCodes: string[] }>('POST', '/api/account/totp/confirm', { code }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: TOTP_STATUS_KEY })
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY })
    },
  })
}
