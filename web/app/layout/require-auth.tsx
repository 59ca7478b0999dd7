import type { ReactNode } from 'react'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useAuth } from '../../features/auth/components/auth-context.ts'
import { AuthPage } from '../../features/auth/components/auth-page.tsx'

/** Sign-in-required routes: a spinner while the session loads, the sign-in page when signed out. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth()
  if (isLoading) return <PageSpinner />
  if (!isAuthenticated) return <AuthPage mode="login" />
  return children
}
