import type { ReactNode } from 'react'
import { Navigate } from 'react-router-dom'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useAuth } from '../../lib/auth-context.ts'

/** Signed-out-only routes (sign-in): a signed-in user goes to the dashboard, as in Proton or SimpleLogin. */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth()
  if (isLoading) return <PageSpinner />
  if (isAuthenticated) return <Navigate to="/dashboard" replace />
  return children
}
