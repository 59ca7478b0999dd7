import { useMutation } from '@tanstack/react-query'
import type { DecryptAutoInput } from '../../../../shared/encryption-schemas.ts'
import { checkEncryptedText, decryptWithKeyMaterial } from '../lib/decrypt-message.ts'
import { getKeyMaterial } from './get-key-material.ts'

/** Auto decrypt (spec §7 decrypt-auto), done locally: the master password is not sent. */
export async function decryptWithSavedKey({ encryptedText, keyId, masterPassword }: DecryptAutoInput): Promise<string> {
  await checkEncryptedText(encryptedText)
  return decryptWithKeyMaterial(encryptedText, await getKeyMaterial(keyId), masterPassword)
}

export function useDecryptWithSavedKey() {
  return useMutation({ mutationFn: decryptWithSavedKey })
}
