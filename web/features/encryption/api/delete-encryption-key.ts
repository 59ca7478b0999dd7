import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { encryptionKeysQueryKey } from './get-encryption-keys.ts'

export function deleteEncryptionKey(keyId: string): Promise<{ success: true }> {
  return apiRequest('DELETE', `/api/encryption-keys/${encodeURIComponent(keyId)}`)
}

export function useDeleteEncryptionKey(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteEncryptionKey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: encryptionKeysQueryKey(userId) }),
  })
}
