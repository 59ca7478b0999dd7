// Checking a second-factor code (a TOTP code or a recovery code) for an account. Attempts are
// counted before anything is checked, per account and per client address, each in one atomic
// upsert (db/rate-limits.ts, the sign-in limits' mechanism), so concurrent guesses cannot all be
// checked; an attempt that passes is given back, so only failures stay counted.
import type { Context } from 'hono'
import { releaseRateLimit } from '../../db/rate-limits.ts'
import { acceptTotpStep, findTotp } from '../../db/user-totp.ts'
import { SecretBox } from '../../lib/secret-box.ts'
import { matchTotp } from '../../lib/totp.ts'
import type { AppEnv } from '../context.ts'
import { clientIp } from '../http/client-ip.ts'
import { countAction, tooMany } from '../http/rate-limit.ts'
import { useRecoveryCode } from './recovery-codes.ts'

export const WRONG_CODE = 'That code is not right, or it was used already'

const boxes = new Map<string, SecretBox>()
/** TOTP secrets are sealed with the user id as associated data: a secret moved to another row fails to open. */
export function totpBox(secretKey: string): SecretBox {
  let box = boxes.get(secretKey)
  if (!box) boxes.set(secretKey, (box = new SecretBox(secretKey, 'totp')))
  return box
}

type Passed = 'totp' | 'recovery-code' | undefined
export type CodeCheck = { refused: Response } | { refused?: undefined; passed: Passed }
export type CodeAttempt = { refused: Response } | { refused?: undefined; check(code: string, confirming?: boolean): Promise<Passed> }

/**
 * Counts one code attempt for `userId` from this client. `check(code)` then checks it; with
 * `confirming`, the code must belong to the pending (unconfirmed) secret, which it confirms, and
 * recovery codes do not count. An attempt that is never checked (a wrong password beside it)
 * stays counted.
 */
export async function reserveCodeAttempt<E extends AppEnv>(c: Context<E>, userId: string): Promise<CodeAttempt> {
  const { sql } = c.var.deps
  const ip = clientIp(c)
  const byIp = await countAction(c, 'second-factor-ip', ip, { ipAddress: ip })
  if (!byIp.allowed) return { refused: tooMany(c, byIp, 'Too many wrong codes from your network. Please try again later.') }
  const byAccount = await countAction(c, 'second-factor-account', userId, { userId })
  if (!byAccount.allowed) {
    await releaseRateLimit(sql, 'second-factor-ip', ip) // nothing was checked for this client
    return { refused: tooMany(c, byAccount, 'Too many wrong codes for this account. Please try again later.') }
  }
  return {
    async check(code, confirming = false) {
      const passed = await verifyCode(c, userId, code.replace(/\s/g, ''), confirming)
      if (passed) {
        await releaseRateLimit(sql, 'second-factor-ip', ip)
        await releaseRateLimit(sql, 'second-factor-account', userId)
      }
      return passed
    },
  }
}

/** Counts, then checks `code` (see reserveCodeAttempt). */
export async function checkSecondFactorCode<E extends AppEnv>(c: Context<E>, userId: string, code: string, confirming = false): Promise<CodeCheck> {
  const attempt = await reserveCodeAttempt(c, userId)
  if (attempt.refused) return attempt
  return { passed: await attempt.check(code, confirming) }
}

async function verifyCode<E extends AppEnv>(c: Context<E>, userId: string, code: string, confirming: boolean): Promise<'totp' | 'recovery-code' | undefined> {
  const { sql, config } = c.var.deps
  if (/^\d{6}$/.test(code)) {
    const totp = await findTotp(sql, userId)
    if (!totp || (totp.confirmedAt === null) !== confirming) return undefined
    const step = matchTotp(totpBox(config.secretKey).open(totp.secretSealed, userId), code, Date.now())
    // The step is recorded as used in the statement that accepts it: a replay finds it taken.
    return step !== undefined && (await acceptTotpStep(sql, userId, step, confirming)) ? 'totp' : undefined
  }
  if (confirming) return undefined
  return (await useRecoveryCode(sql, config.secretKey, userId, code)) ? 'recovery-code' : undefined
}
