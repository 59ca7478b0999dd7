import { Navigate, useLocation } from 'react-router-dom'
import { PendingVerification } from '../../features/auth/components/pending-verification.tsx'

/** After registering: "check your inbox" for the address just registered (from the form). */
export function CheckEmailRoute() {
  const email = (useLocation().state as { email?: string } | null)?.email
  if (!email) return <Navigate to="/register" replace />
  return <PendingVerification email={email} />
}
