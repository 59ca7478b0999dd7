import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Wallet } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { GoogleIcon } from '../../../components/icons/google-icon.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useGoogleEnabled } from '../../../lib/auth-providers.ts'
import { useAuth } from '../../../lib/auth-context.ts'

/** "Or continue with": Solana wallet and Google sign-in. */
export function AlternativeSignIn() {
  const { connectWallet, loginWithGoogle } = useAuth()
  const googleEnabled = useGoogleEnabled()
  const navigate = useNavigate()
  const [connecting, setConnecting] = useState(false)

  async function handleWallet() {
    setConnecting(true)
    try {
      if (!(await connectWallet())) {
        navigate('/auth/second-factor')
        return
      }
      toast({ title: 'Wallet Connected', description: 'Your Solana wallet is connected.' })
      navigate('/dashboard')
    } catch (error) {
      toast({ title: 'Connection Failed', description: errorMessage(error, 'Failed to connect wallet'), variant: 'destructive' })
    } finally {
      setConnecting(false)
    }
  }

  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-3" role="separator" aria-label="Or continue with">
        <span className="h-px flex-1 bg-border" />
        <span className="font-mono text-[11px] uppercase tracking-widest text-muted-foreground">Or continue with</span>
        <span className="h-px flex-1 bg-border" />
      </div>
      <div className="grid gap-2">
        <Button variant="outline" size="lg" className="w-full" onClick={handleWallet} disabled={connecting}>
          {connecting ? <Spinner decorative /> : <Wallet aria-hidden="true" />}
          Continue with Solana Wallet
        </Button>
        {googleEnabled && (
          <Button variant="outline" size="lg" className="w-full" onClick={loginWithGoogle}>
            <GoogleIcon className="size-4" />
            Continue with Gmail
          </Button>
        )}
      </div>
    </div>
  )
}
