import { AuthPage } from '../../features/auth/components/auth-page.tsx'

export function RegisterRoute() {
  return <AuthPage mode="register" />
}
