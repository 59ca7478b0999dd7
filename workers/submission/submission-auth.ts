// SMTP AUTH for the submission server (RFC 4954, PLAIN and LOGIN, only over TLS): the username
// is the alias address, the password is checked against the credential's argon2id verifier.
// Every attempt is counted per client address before the verifier is checked (so concurrent
// guesses cannot all be checked) and given back when it succeeds: failures answer 535, and past
// the limit 454 says when to try again. Passwords are generated (not chosen), so a per-address
// limit is enough; a per-credential one would only let a stranger lock the owner's client out.
import { hitRateLimit, releaseRateLimit } from '../../db/rate-limits.ts'
import { findCredentialForLogin } from '../../db/smtp-credentials.ts'
import type { Sql } from '../../db/client.ts'
import { verifyPassword } from '../../lib/password.ts'
import type { Config } from '../../lib/config.ts'
import { SmtpReply } from '../mail/smtp-reply.ts'

export interface SubmissionUser {
  credentialId: string
  aliasId: string
  userId: string
  address: string
  domain: string
}

const invalid = () => new SmtpReply(535, '5.7.8 Authentication credentials invalid')

export async function authenticate(sql: Sql, config: Config, ip: string, username: string, password: string): Promise<SubmissionUser> {
  const rule = config.rateLimits['smtp-auth-ip']
  const hit = await hitRateLimit(sql, 'smtp-auth-ip', ip, rule.limit, rule.seconds, { ipAddress: ip })
  if (!hit.allowed) {
    const seconds = Math.max(1, Math.ceil((hit.resetTime.getTime() - Date.now()) / 1000))
    throw new SmtpReply(454, `4.7.0 Too many failed authentication attempts, try again in ${seconds} seconds`)
  }
  const credential = await findCredentialForLogin(sql, username.trim())
  const ok = await verifyPassword(credential?.passwordVerifier, password)
  if (!credential || !ok) throw invalid()
  await releaseRateLimit(sql, 'smtp-auth-ip', ip)
  if (!credential.aliasActive) throw new SmtpReply(535, '5.7.8 This alias is paused and cannot send')
  return { credentialId: credential.id, aliasId: credential.aliasId, userId: credential.userId, address: `${credential.alias}@${credential.domain}`.toLowerCase(), domain: credential.domain }
}
