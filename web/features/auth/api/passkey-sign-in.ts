import { startAuthentication } from '@simplewebauthn/browser'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { apiRequest } from '../../../lib/api-client.ts'
import type { SessionUser } from '../../../../shared/auth-schemas.ts'

/**
 * A passkey of this site (discoverable: the browser offers the ones it holds), or, during a
 * second step, one of that account's. Either way a complete sign-in.
 */
export async function signInWithPasskey(): Promise<SessionUser> {
  const optionsJSON = await apiRequest<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/auth/passkey/options')
  const response = await startAuthentication({ optionsJSON })
  return (await apiRequest<{ user: SessionUser }>('POST', '/api/auth/passkey', { response })).user
}
