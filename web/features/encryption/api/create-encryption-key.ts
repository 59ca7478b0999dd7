import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { makeKeyPair } from '../lib/key-crypto.ts'
import { encryptionKeysQueryKey } from './get-encryption-keys.ts'

export interface CreateKeyForm {
  keyName: string
  masterPassword: string
}

/** Generates and locks the key here; the server receives the public key and the locked file only. */
export async function createEncryptionKey({ keyName, masterPassword }: CreateKeyForm): Promise<EncryptionKeyView> {
  const { publicKey, encryptedPrivateKey } = await makeKeyPair(masterPassword)
  const body = await apiRequest<{ key: EncryptionKeyView }>('POST', '/api/encryption-keys', { keyName, publicKey, encryptedPrivateKey })
  return body.key
}

export function useCreateEncryptionKey(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createEncryptionKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: encryptionKeysQueryKey(userId) }),
  })
}
