import { AuthPage } from '../../features/auth/components/auth-page.tsx'

export function AuthRoute() {
  return <AuthPage mode="login" />
}
