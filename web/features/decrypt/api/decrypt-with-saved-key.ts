import { useMutation } from '@tanstack/react-query'
import type { DecryptAutoInput } from '../../../../shared/encryption-schemas.ts'
import { checkEncryptedText, decryptWithKeyMaterial } from '../lib/decrypt-message.ts'
import { getKeyMaterial } from './get-key-material.ts'

/** Auto decrypt, done locally: the master password is not sent (docs/decisions/0002). */
export async function decryptWithSavedKey({ encryptedText, keyId, masterPassword }: DecryptAutoInput): Promise<string> {
  await checkEncryptedText(encryptedText)
  return decryptWithKeyMaterial(encryptedText, await getKeyMaterial(keyId), masterPassword)
}

export function useDecryptWithSavedKey() {
  return useMutation({ mutationFn: decryptWithSavedKey })
}
