import type { KeyMaterial } from '../../../../shared/encryption-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

/** A saved key's public key and locked private key: opened here, never on the server. */
export function getKeyMaterial(keyId: string): Promise<KeyMaterial> {
  return apiGet<KeyMaterial>(`/api/encryption-keys/${encodeURIComponent(keyId)}/encrypted-private-key`)
}
