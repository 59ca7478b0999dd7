import type { SessionUser } from '../../shared/auth-schemas.ts'

export type AuthMethod = 'email' | 'wallet' | 'google' | 'none'

/** The server's authMethod first; else email if there is one, else wallet, else google. */
export function resolveAuthMethod(user: SessionUser | null): AuthMethod {
  if (!user) return 'none'
  if (user.authMethod === 'email' || user.authMethod === 'wallet' || user.authMethod === 'google') return user.authMethod
  if (user.email) return 'email'
  if (user.walletAddress) return 'wallet'
  return 'google'
}

/** First 6 and last 6 characters joined by "...", enough to recognise one's own wallet. */
export function shortenWalletAddress(address: string): string {
  return address.length <= 15 ? address : `${address.slice(0, 6)}...${address.slice(-6)}`
}

/** The short label in the nav bar: e-mail local part, else shortened wallet, else "User". */
export function userLabel(user: SessionUser): string {
  if (user.email) return user.email.split('@')[0] || user.email
  if (user.walletAddress) return shortenWalletAddress(user.walletAddress)
  return 'User'
}
