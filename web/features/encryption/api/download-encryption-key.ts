import { useMutation } from '@tanstack/react-query'
import type { KeyFile, KeyMaterial } from '../../../../shared/encryption-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'
import { openKey } from '../lib/key-crypto.ts'
import { saveKeyFile } from '../lib/key-file.ts'

export function getKeyMaterial(keyId: string): Promise<KeyMaterial> {
  return apiGet<KeyMaterial>(`/api/encryption-keys/${encodeURIComponent(keyId)}/encrypted-private-key`)
}

/** Fetches the locked key, opens it here with the master password and saves the key file. */
export async function downloadEncryptionKey({ keyId, masterPassword }: { keyId: string; masterPassword: string }): Promise<string> {
  const material = await getKeyMaterial(keyId)
  const privateKey = await openKey(material, masterPassword)
  const file: KeyFile = { keyName: material.keyName, publicKey: material.publicKey, privateKey, createdAt: material.createdAt, isDefault: material.isDefault }
  return saveKeyFile(file)
}

export function useDownloadEncryptionKey() {
  return useMutation({ mutationFn: downloadEncryptionKey })
}
