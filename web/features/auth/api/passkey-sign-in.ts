import { startAuthentication, WebAuthnAbortService } from '@simplewebauthn/browser'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { apiRequest } from '../../../lib/api-client.ts'
import type { SessionUser } from '../../../../shared/auth-schemas.ts'

/**
 * A passkey of this site (discoverable: the browser offers the ones it holds), or, during a
 * second step, one of that account's. Either way a complete sign-in. `autofill`: conditional UI,
 * the browser offers the passkeys in the e-mail field's autofill and the promise waits for a pick.
 */
export async function signInWithPasskey(autofill = false): Promise<SessionUser> {
  let optionsJSON: PublicKeyCredentialRequestOptionsJSON
  try {
    optionsJSON = await apiRequest<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/auth/passkey/options')
  } catch (error) {
    // Nobody asked for the autofill offer: without it the form simply shows no passkeys.
    if (autofill) throw new AutofillUnavailable()
    throw error
  }
  let response: Awaited<ReturnType<typeof startAuthentication>>
  try {
    response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill })
  } catch (error) {
    // The browser would not offer this site's passkeys (an address that cannot be an RP ID, say):
    // nobody asked for the offer, so there is nothing to say. A passkey picked and refused by the
    // server below is still said.
    if (autofill && !wasCancelled(error)) throw new AutofillUnavailable()
    throw error
  }
  return (await apiRequest<{ user: SessionUser }>('POST', '/api/auth/passkey', { response })).user
}

/** Ends a waiting autofill request (the sign-in form is gone). */
export const cancelPasskeyRequest = () => WebAuthnAbortService.cancelCeremony()

class AutofillUnavailable extends Error {
  override name = 'AutofillUnavailable'
}

/** A request that was cancelled or replaced by another, or an autofill offer that could not be made: nothing to show. */
export const wasCancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'AutofillUnavailable' || (error as { code?: string }).code === 'ERROR_CEREMONY_ABORTED')
