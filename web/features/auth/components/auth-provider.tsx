import { useCallback, useEffect, useMemo, type ReactNode } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router-dom'
import type { LoginInput, RegisterInput, SessionUser } from '../../../../shared/auth-schemas.ts'
import { toast } from '../../../components/ui/use-toast.ts'
import { getSession, SESSION_QUERY_KEY } from '../api/get-session.ts'
import { loginWithEmail } from '../api/login.ts'
import { submitSecondFactor } from '../api/second-factor.ts'
import { registerWithEmail } from '../api/register.ts'
import { verifyEmail as verifyEmailRequest } from '../api/account-links.ts'
import { signInWithWallet } from '../api/sign-in-with-wallet.ts'
import { logout as logoutRequest } from '../api/logout.ts'
import { resolveAuthMethod } from '../../../lib/auth-method.ts'
import { clearStoredAuth, storeWalletAddress } from '../lib/auth-storage.ts'
import { AuthContext, type AuthState } from '../../../lib/auth-context.ts'

export const GOOGLE_SIGN_IN_URL = '/api/auth/google'

/** Holds who is signed in; the session is checked once on load. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const session = useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: getSession })
  const user = session.data ?? null

  const signedOut = session.isError || (session.isSuccess && session.data === null)
  useEffect(() => {
    if (session.isError) console.error('Session check failed', session.error)
    if (signedOut) clearStoredAuth()
  }, [signedOut, session.isError, session.error])

  // A session check still in flight (the page's first one, sent before the link was followed)
  // must not land after the sign-in and put the signed-out answer back: it is cancelled first.
  const setUser = useCallback(
    async (next: SessionUser | null) => {
      await queryClient.cancelQueries({ queryKey: SESSION_QUERY_KEY })
      queryClient.setQueryData(SESSION_QUERY_KEY, next)
    },
    [queryClient],
  )

  const resetAuth = useCallback(() => {
    // Drop every cached answer that belonged to the old user, keep the (now empty) session.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] })
    void setUser(null)
    clearStoredAuth()
  }, [queryClient, setUser])

  const login = useCallback(
    async (input: LoginInput) => {
      const signedIn = await loginWithEmail(input)
      if (signedIn) await setUser(signedIn)
      return signedIn
    },
    [setUser],
  )

  // Registration signs nobody in: the link mailed to the address does (verifyEmail).
  const register = useCallback((input: RegisterInput) => registerWithEmail(input), [])

  const verifyEmail = useCallback(
    async (token: string) => {
      const verified = await verifyEmailRequest(token)
      if (verified) await setUser(verified)
      return verified
    },
    [setUser],
  )

  const connectWallet = useCallback(async () => {
    const { user: signedIn, walletAddress } = await signInWithWallet()
    storeWalletAddress(walletAddress)
    if (signedIn) await setUser(signedIn)
    return signedIn
  }, [setUser])

  const passkeySignIn = useCallback(async (autofill?: boolean) => {
    // the WebAuthn client loads with the sign-in page that asks for it, not with every page
    const { signInWithPasskey } = await import('../api/passkey-sign-in.ts')
    const signedIn = await signInWithPasskey(autofill)
    await setUser(signedIn)
    return signedIn
  }, [setUser])

  const completeSecondFactor = useCallback(
    async (code: string) => {
      const signedIn = await submitSecondFactor(code)
      await setUser(signedIn)
      return signedIn
    },
    [setUser],
  )

  const loginWithGoogle = useCallback(() => {
    window.location.href = GOOGLE_SIGN_IN_URL
  }, [])

  const logout = useCallback(async () => {
    await logoutRequest()
    resetAuth()
    toast({ title: 'Logged Out', description: 'Successfully logged out' })
    navigate('/home')
  }, [navigate, resetAuth])

  const value = useMemo<AuthState>(
    () => ({
      user,
      isAuthenticated: user !== null,
      isLoading: session.isPending,
      authMethod: resolveAuthMethod(user),
      login,
      register,
      verifyEmail,
      connectWallet,
      completeSecondFactor,
      passkeySignIn,
      loginWithGoogle,
      logout,
      resetAuth,
    }),
    [user, session.isPending, login, register, verifyEmail, connectWallet, completeSecondFactor, passkeySignIn, loginWithGoogle, logout, resetAuth],
  )

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}
