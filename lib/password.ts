// Passwords for signing in: argon2id (RFC 9106). An unknown e-mail is checked against a fixed
// dummy hash so it costs the same time as a wrong password.
import argon2 from 'argon2'

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS)
}

// Computed once at start, so the first unknown e-mail is not slower than the rest.
const dummy: Promise<string> = argon2.hash('veilmail-timing-equaliser', OPTIONS)

export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    await argon2.verify(await dummy, password).catch(() => false)
    return false
  }
  return argon2.verify(hash, password).catch(() => false)
}
