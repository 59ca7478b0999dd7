// Sign-in attempts (password, wallet, Google) are reserved before anything secret is checked or
// anything expensive is done, and given back when the attempt succeeds, so only failures stay
// counted. Two limits (issue 11):
// - per client address, a hard window (`login-ip`): one address cannot guess at scale;
// - per account, spaced attempts (`login-account` free failures, then waits doubling from
//   LOGIN_DELAY_SECONDS' first to its longest): guessing one password stays slow even from many
//   addresses, while the owner is never locked out for longer than the longest wait; a browser
//   that signed in to the account before (api/auth/device-cookie.ts) is spaced on its own
//   counter, so strangers' guesses do not hold it back at all.
import type { Context } from 'hono'
import { clearRateLimit, releaseRateLimit, reserveSpacedAttempt } from '../../db/rate-limits.ts'
import { knownDevice, rememberDevice } from '../auth/device-cookie.ts'
import type { AppEnv } from '../context.ts'
import { clientIp } from './client-ip.ts'
import { countAction, tooMany } from './rate-limit.ts'

export type SignInReservation = { refused: Response } | { refused?: undefined; succeeded(): Promise<void> }

/** Reserves one attempt from this client (and for `account`, when a password is being tried). */
export async function reserveSignIn<E extends AppEnv>(c: Context<E>, account?: string): Promise<SignInReservation> {
  const { sql, config } = c.var.deps
  const ip = clientIp(c)
  const byIp = await countAction(c, 'login-ip', ip, { ipAddress: ip })
  if (!byIp.allowed) return { refused: tooMany(c, byIp, 'Too many failed sign-in attempts from your network. Please try again later.') }
  let spaced: { action: string; key: string } | undefined
  if (account !== undefined) {
    // A known device guesses on a counter of its own; everyone else shares the account's.
    const device = knownDevice(c, account)
    spaced = device ? { action: 'login-device', key: device } : { action: 'login-account', key: account }
    const rule = config.rateLimits['login-account']
    const byAccount = await reserveSpacedAttempt(sql, spaced.action, spaced.key, {
      freeAttempts: rule.limit, forgetSeconds: rule.seconds, firstWaitSeconds: config.loginDelay.firstSeconds, maxWaitSeconds: config.loginDelay.maxSeconds,
    })
    if (!byAccount.allowed) {
      await releaseRateLimit(sql, 'login-ip', ip) // nothing was checked for this client
      const seconds = Math.max(1, Math.ceil((byAccount.resetTime.getTime() - Date.now()) / 1000))
      return { refused: tooMany(c, byAccount, `Too many failed sign-in attempts for this account. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`) }
    }
  }
  return {
    async succeeded() {
      await releaseRateLimit(sql, 'login-ip', ip)
      if (account === undefined || !spaced) return
      await clearRateLimit(sql, spaced.action, spaced.key)
      rememberDevice(c, account)
    },
  }
}
