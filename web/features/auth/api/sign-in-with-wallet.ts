import { ApiError, apiGet, apiRequest } from '../../../lib/api-client.ts'
import type { SessionUser } from '../../../../shared/auth-schemas.ts'
import type { SecondFactorRequired } from '../../../../shared/account-protection-schemas.ts'
import { bytesToBase64, getSolanaProvider, WALLET_NOT_FOUND_MESSAGE } from '../lib/solana-wallet.ts'

export const WALLET_AUTH_FAILED_MESSAGE = 'Wallet authentication failed'

/**
 * Proves ownership of a Solana wallet: connect, fetch a one-time message from the server,
 * sign it in the wallet, and let the server verify the signature.
 */
export async function signInWithWallet(): Promise<{ user: SessionUser | null; walletAddress: string }> {
  const provider = getSolanaProvider()
  if (!provider) throw new Error(WALLET_NOT_FOUND_MESSAGE)

  const { publicKey } = await provider.connect()
  const walletAddress = publicKey.toString()
  try {
    const { message } = await apiGet<{ message: string }>(
      `/api/auth/wallet/nonce?walletAddress=${encodeURIComponent(walletAddress)}`,
    )
    const { signature } = await provider.signMessage(new TextEncoder().encode(message), 'utf8')
    // user is null when the account asks for its second factor next (/auth/second-factor)
    const body = await apiRequest<{ user: SessionUser } | SecondFactorRequired>('POST', '/api/auth/wallet', {
      walletAddress,
      message,
      signature: bytesToBase64(signature),
    })
    return { user: 'user' in body ? body.user : null, walletAddress }
  } catch (error) {
    console.error(WALLET_AUTH_FAILED_MESSAGE, error)
    // A rate limit explains itself; any other server refusal is one generic failure.
    if (error instanceof ApiError && !error.rateLimited) throw new Error(WALLET_AUTH_FAILED_MESSAGE)
    throw error
  }
}
