import { startAuthentication } from '@simplewebauthn/browser'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { TOTP_STATUS_KEY } from './get-totp-status.ts'

/** Off with the password and a code, or (withPasskey) with a fresh passkey assertion and a code. */
export async function disableTotp({ password, code, withPasskey }: { password: string; code: string; withPasskey: boolean }) {
  if (!withPasskey) return apiRequest<{ message: string }>('DELETE', '/api/account/totp', { password, code })
  const optionsJSON = await apiRequest<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/account/totp/passkey-options')
  const passkey = await startAuthentication({ optionsJSON })
  return apiRequest<{ message: string }>('DELETE', '/api/account/totp', { passkey, code })
}

export function useDisableTotp() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: disableTotp, onSuccess: () => queryClient.invalidateQueries({ queryKey: TOTP_STATUS_KEY }) })
}
