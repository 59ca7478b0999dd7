import { createContext, useContext } from 'react'
import type { LoginInput, RegisterInput, SessionUser } from '../../shared/auth-schemas.ts'
import type { AuthMethod } from './auth-method.ts'

export interface AuthState {
  user: SessionUser | null
  isAuthenticated: boolean
  /** True while the first session check is running. */
  isLoading: boolean
  authMethod: AuthMethod
  /** The signed-in user, or null when the account's second factor is asked for next (/auth/second-factor). */
  login: (input: LoginInput) => Promise<SessionUser | null>
  /** Sends the verification link (or, for a taken address, a notice to its owner); signs nobody in. */
  register: (input: RegisterInput) => Promise<{ message: string; email: string }>
  /** Follows a verification link: the address is proven and the account signed in. */
  verifyEmail: (token: string) => Promise<SessionUser | null>
  connectWallet: () => Promise<SessionUser | null>
  /** The second step of a sign-in: a TOTP or recovery code completes it. */
  completeSecondFactor: (code: string) => Promise<SessionUser>
  /** A passkey: a complete sign-in, or the second step of one that waits for it. */
  passkeySignIn: (autofill?: boolean) => Promise<SessionUser>
  loginWithGoogle: () => void
  /** Server logout, local reset, "Logged Out" toast, then /home. */
  logout: () => Promise<void>
  /** Forget the user locally (after the account was deleted on the server). */
  resetAuth: () => void
}

export const AuthContext = createContext<AuthState | undefined>(undefined)

export function useAuth(): AuthState {
  const context = useContext(AuthContext)
  if (context === undefined) throw new Error('useAuth must be used within an AuthProvider')
  return context
}
