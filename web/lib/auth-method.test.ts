import { describe, expect, it } from 'vitest'
import type { SessionUser } from '../../shared/auth-schemas.ts'
import { resolveAuthMethod, shortenWalletAddress, userLabel } from './auth-method.ts'

const base: SessionUser = {
  id: 'u', email: null, walletAddress: null, googleId: null, authMethod: 'email',
  firstName: null, lastName: null, profileImageUrl: null, balance: '0.00', emailVerified: true, createdAt: '2025-01-01T00:00:00Z',
}

describe('auth method and user label', () => {
  it('prefers the server authMethod', () => {
    expect(resolveAuthMethod(null)).toBe('none')
    expect(resolveAuthMethod({ ...base, authMethod: 'google', email: 'a@b.c' })).toBe('google')
    expect(resolveAuthMethod({ ...base, authMethod: 'wallet', walletAddress: 'x' })).toBe('wallet')
  })

  it('labels with the e-mail local part, else the shortened wallet, else "User"', () => {
    expect(userLabel({ ...base, email: 'jane.doe@example.com' })).toBe('jane.doe')
    const wallet = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'
    expect(userLabel({ ...base, walletAddress: wallet })).toBe('7xKXtg...osgAsU')
    expect(shortenWalletAddress(wallet)).toBe('7xKXtg...osgAsU')
    expect(userLabel(base)).toBe('User')
  })
})
