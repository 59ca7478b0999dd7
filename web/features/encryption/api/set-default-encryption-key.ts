import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { encryptionKeysQueryKey } from './get-encryption-keys.ts'

export async function setDefaultEncryptionKey(keyId: string): Promise<EncryptionKeyView> {
  return (await apiRequest<{ key: EncryptionKeyView }>('PATCH', `/api/encryption-keys/${encodeURIComponent(keyId)}`, { isDefault: true })).key
}

export function useSetDefaultEncryptionKey(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setDefaultEncryptionKey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: encryptionKeysQueryKey(userId) }),
  })
}
