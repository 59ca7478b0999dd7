// Passwords for signing in: argon2id (RFC 9106). An unknown e-mail is checked against a fixed
// dummy hash so it costs the same time as a wrong password.
import argon2 from 'argon2'
import { log } from './log.ts'

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS)
}

// Computed once at start, so the first unknown e-mail is not slower than the rest.
const dummy: Promise<string> = argon2.hash('veilmail-timing-equaliser', OPTIONS)

export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  const matches = await argon2.verify(hash || (await dummy), password).catch(() => false)
  log.debug('auth.password_checked') // counted (veilmail_password_checks_total), never which account
  return Boolean(hash) && matches
}
