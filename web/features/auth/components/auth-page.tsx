import { useEffect, useRef } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { ShieldCheck } from 'lucide-react'
import { Card } from '../../../components/ui/card.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { AlternativeSignIn } from './alternative-sign-in.tsx'
import { LoginForm } from './login-form.tsx'
import { RegisterForm } from './register-form.tsx'

const COPY = {
  login: {
    documentTitle: 'Sign In',
    title: 'Welcome Back',
    subtitle: 'Sign in to manage your aliases and keys.',
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

/** Shows "Google Login Failed" once when the server sent the user back with ?error=google. */
function useGoogleErrorToast() {
  const [params, setParams] = useSearchParams()
  const shown = useRef(false)
  useEffect(() => {
    if (params.get('error') !== 'google' || shown.current) return
    shown.current = true
    toast({ title: 'Google Login Failed', description: 'Failed to login with Google', variant: 'destructive' })
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
    <div className="relative flex min-h-[calc(100vh-4rem)] items-center justify-center overflow-hidden px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] bg-[size:40px_40px] opacity-40 [mask-image:radial-gradient(ellipse_at_center,black_20%,transparent_70%)]"
      />
      <Card className="relative w-full max-w-md p-6 sm:p-8">
        <div className="mb-6 space-y-2 text-center">
          <p className="font-mono text-xs tracking-widest text-primary">{mode === 'login' ? '_SIGN IN' : '_SIGN UP'}</p>
          <h1 className="text-2xl font-bold tracking-tight">{copy.title}</h1>
          <p className="text-sm text-muted-foreground">{copy.subtitle}</p>
        </div>
        <div className="grid gap-6">
          {mode === 'login' ? <LoginForm /> : <RegisterForm />}
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
      </Card>
    </div>
  )
}
