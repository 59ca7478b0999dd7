import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useGoogleEnabled } from '../../lib/auth-providers.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { LandingPage } from '../../features/landing/components/landing-page.tsx'

/** /home (and / when signed out): the public landing page. */
export function HomeRoute() {
  useDocumentTitle('Veilmail: private email aliases and encryption', { exact: true })
  const { isAuthenticated, isLoading, loginWithGoogle } = useAuth()
  const googleEnabled = useGoogleEnabled()
  return (
    <LandingPage
      isAuthenticated={isAuthenticated}
      isLoading={isLoading}
      googleEnabled={googleEnabled}
      onGoogleSignIn={loginWithGoogle}
    />
  )
}
