// Links the service mails to prove an address: a 256-bit random token in the URL, only its
// SHA-256 in account_tokens, single-use and expiring. The mails themselves (their copy) live here
// too, so every link a mail carries is built in one place from PUBLIC_URL.
import { createHash, randomBytes } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import { insertAccountToken, type TokenPurpose } from '../../db/account-tokens.ts'
import type { Db } from '../../db/client.ts'
import type { Config } from '../../lib/config.ts'
import { queueSystemMail } from '../email-jobs/system-mail.ts'

export const TOKEN_TTL_SECONDS: Record<TokenPurpose, number> = {
  'verify-email': 24 * 3600,
  'reset-password': 3600,
  'confirm-target': 7 * 24 * 3600,
}

/** Where each link opens in the web app. */
const PAGE: Record<TokenPurpose, string> = {
  'verify-email': '/verify-email',
  'reset-password': '/reset-password',
  'confirm-target': '/confirm-target',
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest()

type MailDeps = { boss: PgBoss; config: Config }

async function issueLink(db: Db, config: Config, purpose: TokenPurpose, userId: string, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await insertAccountToken(db, { userId, purpose, email: email.toLowerCase(), tokenHash: hashToken(token), ttlSeconds: TOKEN_TTL_SECONDS[purpose] })
  return `${config.publicUrl}${PAGE[purpose]}?token=${token}`
}

export async function mailVerificationLink(db: Db, deps: MailDeps, user: { id: string; email: string }): Promise<void> {
  const link = await issueLink(db, deps.config, 'verify-email', user.id, user.email)
  await queueSystemMail(db, deps, {
    userId: user.id, to: user.email, subject: 'Confirm your e-mail address for Veilmail',
    text: `Welcome to Veilmail.\n\nConfirm that this address is yours by opening this link. It works once, for 24 hours:\n\n${link}\n\n` +
      'If you did not create a Veilmail account, ignore this mail: without the link nothing happens.\n',
  })
}

/** Someone registered with an address that already has an account: its owner hears of it. */
export async function mailRegistrationNotice(db: Db, deps: MailDeps, user: { id: string; email: string }): Promise<void> {
  const base = deps.config.publicUrl
  await queueSystemMail(db, deps, {
    userId: user.id, to: user.email, subject: 'Someone tried to register with your address',
    text: 'Someone tried to create a Veilmail account with this e-mail address. It already has an account, so no new one was made.\n\n' +
      `If it was you, sign in:\n\n${base}/auth\n\nor, if you forgot your password, reset it:\n\n${base}/forgot-password\n\n` +
      'If it was not you, you can ignore this mail: your account is unchanged.\n',
  })
}

export async function mailPasswordResetLink(db: Db, deps: MailDeps, user: { id: string; email: string }): Promise<void> {
  const link = await issueLink(db, deps.config, 'reset-password', user.id, user.email)
  await queueSystemMail(db, deps, {
    userId: user.id, to: user.email, subject: 'Reset your Veilmail password',
    text: `Someone (we hope you) asked to reset the password of your Veilmail account. Choose a new one here. The link works once, for 1 hour:\n\n${link}\n\n` +
      'Setting a new password signs out every other device. If you did not ask for this, ignore this mail: your password is unchanged.\n',
  })
}

export async function mailTargetConfirmation(db: Db, deps: MailDeps, userId: string, target: string): Promise<void> {
  const link = await issueLink(db, deps.config, 'confirm-target', userId, target)
  await queueSystemMail(db, deps, {
    userId, to: target, subject: 'Confirm forwarding to this address',
    text: 'A Veilmail user asked to forward the mail of their aliases to this address. Nothing is forwarded here until you confirm. ' +
      `To confirm, open this link (it works once, for 7 days):\n\n${link}\n\n` +
      'If you did not expect this, ignore this mail: no mail will be forwarded to you.\n',
  })
}
