// The account's passkeys: list, add (the browser creates it with @simplewebauthn/browser against
// the server's challenge), rename, remove.
import { startRegistration } from '@simplewebauthn/browser'
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { PasskeyInfo } from '../../../../shared/account-protection-schemas.ts'
import { apiGet, apiRequest } from '../../../lib/api-client.ts'
import { TOTP_STATUS_KEY } from './get-totp-status.ts'

export const PASSKEYS_KEY = ['account', 'passkeys'] as const

export function usePasskeys() {
  return useQuery({ queryKey: PASSKEYS_KEY, queryFn: async () => (await apiGet<{ passkeys: PasskeyInfo[] }>('/api/account/passkeys')).passkeys })
}

export async function addPasskey(name: string): Promise<PasskeyInfo> {
  const optionsJSON = await apiRequest<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/account/passkeys/options')
  const response = await startRegistration({ optionsJSON })
  return (await apiRequest<{ passkey: PasskeyInfo }>('POST', '/api/account/passkeys', { name, response })).passkey
}

function useInvalidating<A, R>(fn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY })
      void queryClient.invalidateQueries({ queryKey: TOTP_STATUS_KEY })
    },
  })
}

export const useAddPasskey = () => useInvalidating(addPasskey)
export const useRenamePasskey = () => useInvalidating(({ id, name }: { id: string; name: string }) => apiRequest('PATCH', `/api/account/passkeys/${encodeURIComponent(id)}`, { name }))
export const useRemovePasskey = () => useInvalidating((id: string) => apiRequest('DELETE', `/api/account/passkeys/${encodeURIComponent(id)}`))
