// The second factor in settings: GET /api/account/totp (status), POST /api/account/totp (a new
// pending secret), POST /api/account/totp/confirm { code } (on, with ten recovery codes; every
// other session ends), DELETE /api/account/totp { password or passkey, code } (off; the passkey's
// challenge from POST /api/account/totp/passkey-options), POST
// /api/account/recovery-codes (ten new ones replace the old).
import { Hono } from 'hono'
import { countUnusedRecoveryCodes, deleteRecoveryCodes } from '../../db/recovery-codes.ts'
import { deleteOtherSessions } from '../../db/sessions.ts'
import { deleteTotp, findTotp, upsertPendingTotp } from '../../db/user-totp.ts'
import { verifyPassword } from '../../lib/password.ts'
import { newTotpSecret, otpauthUri, base32Encode } from '../../lib/totp.ts'
import { CodeSchema, DisableTotpSchema, type TotpEnrolment, type TotpStatus } from '../../shared/account-protection-schemas.ts'
import { issueRecoveryCodes } from '../auth/recovery-codes.ts'
import { checkSecondFactorCode, reserveCodeAttempt, totpBox, WRONG_CODE } from '../auth/second-factor-check.ts'
import { queueSecurityNotice } from '../auth/security-notice.ts'
import { currentSessionId } from '../auth/session.ts'
import { authenticationOptions, verifyAuthentication } from '../auth/webauthn.ts'
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { AppEnv } from '../context.ts'
import { signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'

const ISSUER = 'Veilmail'
const wrongCode = { message: WRONG_CODE, errors: { code: [WRONG_CODE] } }

export const totpRoutes = new Hono<AppEnv>()
  .get('/totp', signedIn, async (c) => {
    const { sql } = c.var.deps
    const user = c.var.user
    const totp = await findTotp(sql, user.id)
    const status: TotpStatus = {
      enabled: Boolean(totp?.confirmedAt),
      recoveryCodesLeft: totp?.confirmedAt ? await countUnusedRecoveryCodes(sql, user.id) : 0,
      passwordRequired: user.passwordHash !== null,
    }
    return c.json(status)
  })
  .post('/totp', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const user = c.var.user
    const secret = newTotpSecret()
    if (!(await upsertPendingTotp(sql, user.id, totpBox(config.secretKey).seal(secret, user.id)))) {
      return c.json({ message: 'Two-factor authentication is already on' }, 409)
    }
    const account = user.email ?? user.walletAddress ?? user.id
    const enrolment: TotpEnrolment = { secret: base32Encode(secret), otpauthUri: otpauthUri(ISSUER, account, secret) }
    return c.json(enrolment, 201)
  })
  .post('/totp/confirm', signedIn, jsonBody(CodeSchema), async (c) => {
    const { sql, config } = c.var.deps
    const user = c.var.user
    const totp = await findTotp(sql, user.id)
    if (!totp || totp.confirmedAt) return c.json({ message: totp ? 'Two-factor authentication is already on' : 'Start setting up two-factor authentication first' }, 409)
    const check = await checkSecondFactorCode(c, user.id, c.req.valid('json').code, true)
    if (check.refused) return check.refused
    if (!check.passed) return c.json(wrongCode, 400)
    const keep = await currentSessionId(c)
    const recoveryCodes = await sql.begin(async (tx) => {
      const codes = await issueRecoveryCodes(tx, config.secretKey, user.id)
      await deleteOtherSessions(tx, user.id, keep)
      await queueSecurityNotice(tx, c.var.deps, user, 'totp-enabled')
      return codes
    })
    return c.json({ recoveryCodes })
  })
  .delete('/totp', signedIn, jsonBody(DisableTotpSchema), async (c) => {
    const { sql } = c.var.deps
    const user = c.var.user
    const { password, passkey, code } = c.req.valid('json')
    const totp = await findTotp(sql, user.id)
    if (!totp?.confirmedAt) return c.json({ message: 'Two-factor authentication is not on' }, 409)
    // Counted before the password hash is spent or the code checked; a wrong password stays counted.
    const attempt = await reserveCodeAttempt(c, user.id)
    if (attempt.refused) return attempt.refused
    if (passkey) {
      // A fresh assertion of one of the account's own passkeys, answering a challenge this browser was handed for it.
      const confirmed = await verifyAuthentication(c, passkey as unknown as AuthenticationResponseJSON)
      if (!confirmed || confirmed.purpose !== 'confirm' || confirmed.passkey.userId !== user.id) {
        return c.json({ message: 'The passkey did not confirm it is you', errors: { passkey: ['The passkey did not confirm it is you'] } }, 400)
      }
    } else if (user.passwordHash !== null && !(await verifyPassword(user.passwordHash, password))) {
      return c.json({ message: 'Wrong password', errors: { password: ['Wrong password'] } }, 400)
    }
    if (!(await attempt.check(code))) return c.json(wrongCode, 400)
    await sql.begin(async (tx) => {
      await deleteTotp(tx, user.id)
      await deleteRecoveryCodes(tx, user.id)
      await queueSecurityNotice(tx, c.var.deps, user, 'totp-disabled')
    })
    return c.json({ message: 'Two-factor authentication is off' })
  })
  // A challenge to confirm with a passkey (instead of the password) before turning the second factor off.
  .post('/totp/passkey-options', signedIn, async (c) => c.json(await authenticationOptions(c, 'confirm', c.var.user.id)))
  .post('/recovery-codes', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const user = c.var.user
    const totp = await findTotp(sql, user.id)
    if (!totp?.confirmedAt) return c.json({ message: 'Turn on two-factor authentication first' }, 409)
    const recoveryCodes = await sql.begin(async (tx) => {
      const codes = await issueRecoveryCodes(tx, config.secretKey, user.id)
      await queueSecurityNotice(tx, c.var.deps, user, 'recovery-codes-regenerated')
      return codes
    })
    return c.json({ recoveryCodes }, 201)
  })
