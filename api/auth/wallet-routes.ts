// Solana wallet sign-in: proof of ownership by an ed25519 signature over a message that names
// our domain and a single-use nonce. An address alone signs no one in.
import { createPublicKey, randomBytes, verify } from 'node:crypto'
import bs58 from 'bs58'
import { Hono } from 'hono'
import * as v from 'valibot'
import { consumeWalletNonce, insertWalletNonce, NONCE_TTL_SECONDS } from '../../db/wallet-nonces.ts'
import { findUserByWallet, insertUser } from '../../db/users.ts'
import type { AppEnv } from '../context.ts'
import { clientIp } from '../http/client-ip.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { reserveSignIn } from '../http/sign-in-limit.ts'
import { jsonBody, queryParams } from '../http/validate.ts'
import { WalletSignInSchema } from '../../shared/auth-schemas.ts'
import { completeFirstFactor } from './first-factor.ts'
import { publicUser } from './session.ts'
import { formatWalletMessage, parseWalletMessage } from './wallet-message.ts'

/** The 32-byte ed25519 public key a base58 Solana address encodes, or undefined. */
export function decodeSolanaAddress(address: string): Buffer | undefined {
  try {
    const bytes = bs58.decode(address)
    return bytes.length === 32 ? Buffer.from(bytes) : undefined
  } catch {
    return undefined
  }
}

function verifySignature(publicKey: Buffer, message: string, signature: Buffer): boolean {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') }, format: 'jwk' })
    return signature.length === 64 && verify(null, Buffer.from(message, 'utf8'), key, signature)
  } catch {
    return false
  }
}

const NonceQuery = v.object({
  walletAddress: v.pipe(v.string('Wallet address is required'), v.check((a) => decodeSolanaAddress(a) !== undefined, 'Wallet address is not a valid Solana address')),
})

const refused = 'Wallet authentication failed'

export const walletRoutes = new Hono<AppEnv>()
  .get('/nonce', queryParams(NonceQuery), async (c) => {
    const { walletAddress } = c.req.valid('query')
    const ip = clientIp(c)
    const hit = await countAction(c, 'wallet-ip', ip, { ipAddress: ip })
    if (!hit.allowed) return tooMany(c, hit)
    const publicUrl = new URL(c.var.deps.config.publicUrl)
    const nonce = randomBytes(16).toString('hex')
    const issuedAt = new Date()
    const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_SECONDS * 1000)
    await insertWalletNonce(c.var.deps.sql, nonce, walletAddress, expiresAt)
    const message = formatWalletMessage({
      domain: publicUrl.host, address: walletAddress, uri: publicUrl.origin, nonce,
      issuedAt: issuedAt.toISOString(), expirationTime: expiresAt.toISOString(),
    })
    return c.json({ nonce, message, expiresAt: expiresAt.toISOString() })
  })
  .post('/', jsonBody(WalletSignInSchema), async (c) => {
    const { walletAddress, message, signature } = c.req.valid('json')
    const { sql, config } = c.var.deps
    if (!message || !signature) return c.json({ message: refused }, 401)
    const publicKey = decodeSolanaAddress(walletAddress)
    const parsed = parseWalletMessage(message)
    const publicUrl = new URL(config.publicUrl)
    if (!publicKey || !parsed || parsed.address !== walletAddress || parsed.domain !== publicUrl.host || parsed.uri !== publicUrl.origin) {
      return c.json({ message: refused }, 401)
    }
    // Counted before the nonce is spent and the signature checked, so concurrent tries cannot
    // all be checked; given back when the wallet signs in.
    const attempt = await reserveSignIn(c)
    if (attempt.refused) return attempt.refused
    // The nonce is spent by this attempt whatever its outcome: no second try with it.
    if (!(await consumeWalletNonce(sql, parsed.nonce, walletAddress))) return c.json({ message: refused }, 401)
    if (!verifySignature(publicKey, message, Buffer.from(signature, 'base64'))) return c.json({ message: refused }, 401)

    const user = (await findUserByWallet(sql, walletAddress))
      ?? (await insertUser(sql, { walletAddress, authMethod: 'wallet' }))
      ?? (await findUserByWallet(sql, walletAddress)) // created by a concurrent sign-in
    if (!user) return c.json({ message: refused }, 401)
    await attempt.succeeded()
    const pending = await completeFirstFactor(c, user.id)
    return c.json(pending ?? { user: publicUser(user) })
  })
