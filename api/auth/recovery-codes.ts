// Recovery codes: ten per account, each 50 random bits written as two groups of five Base32
// letters ("k7q2m-x4vna"), shown once and kept as HMAC-SHA256 under a key derived from SECRET_KEY,
// so a copy of the table alone cannot be tried offline. The lookup is by that HMAC (as a session
// token's is by its hash), so nothing is compared byte by byte in JavaScript.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { deleteRecoveryCodes, insertRecoveryCodes, spendRecoveryCode } from '../../db/recovery-codes.ts'
import type { Db } from '../../db/client.ts'
import { base32Encode } from '../../lib/totp.ts'

export const RECOVERY_CODE_COUNT = 10

const keys = new Map<string, Buffer>()
function hashCode(secretKey: string, normalized: string): Buffer {
  let key = keys.get(secretKey)
  if (!key) keys.set(secretKey, (key = Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', 'recovery-code', 32))))
  return createHmac('sha256', key).update(normalized).digest()
}

/** The code as typed, without case, spaces or dashes; undefined when it cannot be a recovery code. */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const code = typed.toLowerCase().replace(/[\s-]/g, '')
  return /^[a-z2-7]{10}$/.test(code) ? code : undefined
}

/** Replaces the account's codes with ten new ones; returns them (the only time they exist in clear). */
export async function issueRecoveryCodes(db: Db, secretKey: string, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => base32Encode(randomBytes(7)).slice(0, 10).toLowerCase())
  await deleteRecoveryCodes(db, userId)
  await insertRecoveryCodes(db, userId, codes.map((code) => hashCode(secretKey, code)))
  return codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`)
}

/** Spends one unused code of the account; false for a wrong, used or malformed one. */
export async function useRecoveryCode(db: Db, secretKey: string, userId: string, typed: string): Promise<boolean> {
  const code = normalizeRecoveryCode(typed)
  return code !== undefined && spendRecoveryCode(db, userId, hashCode(secretKey, code))
}
