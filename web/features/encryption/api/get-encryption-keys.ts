import { useQuery } from '@tanstack/react-query'
import type { EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

/** Every key mutation invalidates this key. */
export const encryptionKeysQueryKey = (userId: string) => ['encryption-keys', userId] as const

/** The user's keys, newest first. */
export async function getEncryptionKeys(): Promise<EncryptionKeyView[]> {
  return (await apiGet<{ keys: EncryptionKeyView[] }>('/api/encryption-keys')).keys
}

/** The list loads only once a user id exists (the route is per user). */
export function useEncryptionKeys(userId: string | undefined) {
  return useQuery({ queryKey: encryptionKeysQueryKey(userId ?? ''), queryFn: getEncryptionKeys, enabled: Boolean(userId) })
}
