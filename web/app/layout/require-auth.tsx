import type { ReactNode } from 'react'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useAuth } from '../../lib/auth-context.ts'
import { AuthPage } from '../../features/auth/components/auth-page.tsx'
import { PendingVerification } from '../../features/auth/components/pending-verification.tsx'

/**
 * Sign-in-required routes: a spinner while the session loads, the sign-in page when signed out,
 * the pending-verification screen while an e-mail account's address is unconfirmed.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated, user } = useAuth()
  if (isLoading) return <PageSpinner />
  if (!isAuthenticated) return <AuthPage mode="login" />
  // An e-mail account can do nothing until its address is confirmed (the API refuses with 403).
  if (user?.email && user.authMethod === 'email' && !user.emailVerified) return <PendingVerification />
  return children
}
