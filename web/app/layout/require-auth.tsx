import type { ReactNode } from 'react'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useAuth } from '../../lib/auth-context.ts'
import { lazyRoute } from '../lazy-route.ts'
import { usePreloadedCodeWaiting } from '../page-preload.ts'

// loaded only when shown: a signed-in reader of these pages needs neither
const AuthPage = lazyRoute(() => import('../../features/auth/components/auth-page.tsx'), (m) => () => <m.AuthPage mode="login" />)
const PendingVerification = lazyRoute(() => import('../../features/auth/components/pending-verification.tsx'), (m) => m.PendingVerification)

/**
 * Sign-in-required routes: a spinner while the session loads (and the page's code preloaded beside
 * it, page-preload.ts), the sign-in page when signed out,
 * the pending-verification screen while an e-mail account's address is unconfirmed.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated, user } = useAuth()
  const codeWaiting = usePreloadedCodeWaiting()
  if (isLoading || codeWaiting) return <PageSpinner />
  if (!isAuthenticated) return <AuthPage />
  // An e-mail account can do nothing until its address is confirmed (the API refuses with 403).
  if (user?.email && user.authMethod === 'email' && !user.emailVerified) return <PendingVerification />
  return children
}
