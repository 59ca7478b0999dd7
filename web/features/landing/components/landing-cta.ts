import { useNavigate } from 'react-router-dom'

export interface LandingAuthProps {
  isAuthenticated: boolean
  isLoading: boolean
  googleEnabled: boolean
  onGoogleSignIn: () => void
}

/** The routing shared by "Sign up with email" and "Get Started Free": dashboard or sign-in. */
export function usePrimaryCta({ isAuthenticated, isLoading }: Pick<LandingAuthProps, 'isAuthenticated' | 'isLoading'>) {
  const navigate = useNavigate()
  return {
    disabled: isLoading,
    label: isLoading ? 'Loading...' : isAuthenticated ? 'Go to Dashboard' : 'Sign up with email',
    go: () => navigate(isAuthenticated ? '/dashboard' : '/auth'),
  }
}
