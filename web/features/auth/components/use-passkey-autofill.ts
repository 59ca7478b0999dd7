import { useEffect } from 'react'
import { useNavigate } from 'react-router-dom'
import { browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { cancelPasskeyRequest, wasCancelled } from '../api/passkey-sign-in.ts'

/**
 * Conditional UI (WebAuthn conditional mediation): where the browser offers it, the passkeys it
 * holds for this site appear in the e-mail field's autofill while the sign-in form is shown; picking
 * one signs in. Needs an input with autocomplete "webauthn" on the page.
 */
export function usePasskeyAutofill() {
  const { passkeySignIn } = useAuth()
  const navigate = useNavigate()
  useEffect(() => {
    let live = true
    void browserSupportsWebAuthnAutofill().then((supported) => {
      if (!supported || !live) return
      passkeySignIn(true).then(
        () => {
          toast({ title: 'Login Successful', description: 'Welcome back to Veilmail.' })
          navigate('/dashboard', { replace: true })
        },
        (error: unknown) => {
          if (!live || wasCancelled(error)) return
          toast({ title: 'Passkey Sign-In Failed', description: errorMessage(error, 'Passkey sign-in failed'), variant: 'destructive' })
        },
      )
    })
    return () => {
      live = false
      cancelPasskeyRequest()
    }
  }, [passkeySignIn, navigate])
}
