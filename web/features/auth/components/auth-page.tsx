import { useEffect, useRef } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { ShieldCheck } from 'lucide-react'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { AccountCard } from './account-card.tsx'
import { AlternativeSignIn } from './alternative-sign-in.tsx'
import { LoginForm } from './login-form.tsx'
import { PasskeySignInButton } from './passkey-sign-in-button.tsx'
import { RegisterForm } from './register-form.tsx'

const COPY = {
  login: {
    documentTitle: 'Sign In',
    title: 'Welcome Back',
    subtitle: 'Sign in to manage your aliases, keys and inbox.',
    switchPrompt: "Don't have an account?",
    switchLabel: 'Create account',
    switchTo: '/register',
  },
  register: {
    documentTitle: 'Create Account',
    title: 'Create Account',
    subtitle: 'Free forever. Your first alias is 30 seconds away.',
    switchPrompt: 'Already have an account?',
    switchLabel: 'Sign in',
    switchTo: '/auth',
  },
} as const

const GOOGLE_ERRORS: Record<string, string> = {
  google: 'Failed to login with Google',
  // An e-mail account with this address exists but its address was never confirmed: Google is
  // not linked to it (it may be someone else's claim on the address).
  'google-unverified':
    'An account with this e-mail address is waiting for its address to be confirmed. Open the link we mailed, sign in with your password, or use "Forgot password?" to prove the address; then Google sign-in works.',
}

/** Shows "Google Login Failed" once when the server sent the user back with ?error=google… */
function useGoogleErrorToast() {
  const [params, setParams] = useSearchParams()
  const shown = useRef(false)
  useEffect(() => {
    const description = GOOGLE_ERRORS[params.get('error') ?? '']
    if (!description || shown.current) return
    shown.current = true
    toast({ title: 'Google Login Failed', description, variant: 'destructive' })
    const next = new URLSearchParams(params)
    next.delete('error')
    setParams(next, { replace: true })
  }, [params, setParams])
}

export function AuthPage({ mode }: { mode: 'login' | 'register' }) {
  const copy = COPY[mode]
  useDocumentTitle(copy.documentTitle)
  useGoogleErrorToast()

  return (
    <AccountCard eyebrow={mode === 'login' ? '_SIGN IN' : '_SIGN UP'} title={copy.title} subtitle={copy.subtitle}>
      <div className="grid gap-6">
        {mode === 'login' ? <LoginForm /> : <RegisterForm />}
        {mode === 'login' && <PasskeySignInButton />}
        <AlternativeSignIn />
        <p className="text-center text-sm text-muted-foreground">
          {copy.switchPrompt}{' '}
          <Link to={copy.switchTo} className="font-medium text-primary underline-offset-4 hover:underline">
            {copy.switchLabel}
          </Link>
        </p>
        <p className="flex items-start gap-2 rounded-md bg-muted px-3 py-2.5 text-xs text-muted-foreground">
          <ShieldCheck className="mt-px size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>
            By continuing you agree to our{' '}
            <Link to="/terms" className="underline underline-offset-2 hover:text-foreground">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to="/privacy" className="underline underline-offset-2 hover:text-foreground">
              Privacy Policy
            </Link>
            .
          </span>
        </p>
      </div>
    </AccountCard>
  )
}
