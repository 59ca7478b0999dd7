import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Fingerprint } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'

/** "Continue with a passkey" (like the other ways to sign in; on the second step "Use a passkey"): a complete sign-in. */
export function PasskeySignInButton({ label = 'Continue with a passkey' }: { label?: string }) {
  const { passkeySignIn } = useAuth()
  const navigate = useNavigate()
  const [pending, setPending] = useState(false)
  async function handleClick() {
    setPending(true)
    try {
      await passkeySignIn()
      toast({ title: 'Login Successful', description: 'Welcome back to Veilmail.' })
      navigate('/dashboard', { replace: true })
    } catch (error) {
      toast({ title: 'Passkey Sign-In Failed', description: errorMessage(error, 'Passkey sign-in failed'), variant: 'destructive' })
    } finally {
      setPending(false)
    }
  }
  return (
    <Button type="button" variant="outline" size="lg" className="w-full" onClick={handleClick} disabled={pending}>
      {pending ? <Spinner decorative /> : <Fingerprint aria-hidden="true" />}
      {label}
    </Button>
  )
}
