import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { useQuery } from '@tanstack/react-query'
import { CodeSchema } from '../../../../shared/account-protection-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { getPendingSignIn } from '../api/second-factor.ts'
import { AccountCard } from './account-card.tsx'
import { PasskeySignInButton } from './passkey-sign-in-button.tsx'

/**
 * /auth/second-factor: after the password (or Google, or a wallet) of an account with two-factor
 * authentication on. Only the browser that passed the first step holds the pending sign-in, for
 * five minutes.
 */
export function SecondFactorPage() {
  useDocumentTitle('Two-Factor Authentication')
  const { completeSecondFactor } = useAuth()
  const navigate = useNavigate()
  const [code, setCode] = useState('')
  const [recovery, setRecovery] = useState(false)
  const pending = useQuery({ queryKey: ['auth', 'second-factor'], queryFn: getPendingSignIn, staleTime: Infinity })
  const form = useSchemaForm(CodeSchema, {
    async onSubmit(input) {
      await completeSecondFactor(input.code)
      toast({ title: 'Login Successful', description: 'Welcome back to Veilmail.' })
      navigate('/dashboard', { replace: true })
    },
    onError: (error) => toast({ title: 'Code Not Accepted', description: errorMessage(error, 'That code is not right'), variant: 'destructive' }),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => form.submit(event, { code })

  if (pending.isPending) {
    return (
      <AccountCard eyebrow="_SIGN IN" title="Two-Factor Authentication" subtitle="Checking your sign-in...">
        <Spinner />
      </AccountCard>
    )
  }
  if (!pending.data) {
    return (
      <AccountCard eyebrow="_SIGN IN" title="Sign-In Expired" subtitle="The second step waits five minutes after your password, in the browser that entered it.">
        <Button asChild size="lg" className="w-full">
          <Link to="/auth">Sign in again</Link>
        </Button>
      </AccountCard>
    )
  }

  return (
    <AccountCard
      eyebrow="_SIGN IN"
      title="Two-Factor Authentication"
      subtitle={recovery ? 'Enter one of your recovery codes. Each code works once.' : 'Enter the 6-digit code from your authenticator app.'}
    >
      <div className="grid gap-6">
        <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Second factor">
          <FormField
            label={recovery ? 'Recovery code' : 'Authentication code'}
            name="code"
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={form.errors.code}
          />
          <Button type="submit" size="lg" className="w-full" disabled={form.pending}>
            {form.pending && <Spinner decorative />}
            {form.pending ? 'Verifying...' : 'Verify'}
          </Button>
        </form>
        {pending.data.methods.includes('passkey') && <PasskeySignInButton label="Use a passkey" />}
        <button
          type="button"
          className="justify-self-center text-sm font-medium text-primary underline-offset-4 hover:underline"
          onClick={() => {
            setRecovery(!recovery)
            setCode('')
          }}
        >
          {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
        </button>
      </div>
    </AccountCard>
  )
}
