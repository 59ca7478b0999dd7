// Registration with an e-mail address (issue 11 items 3 and 8). A new account starts unverified
// and gets a verification link; an address that already has an account gets a notice instead.
// The caller answers the same in both cases, so registration tells nobody which addresses exist.
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { findUserByEmail, insertUser } from '../../db/users.ts'
import type { Config } from '../../lib/config.ts'
import { mailRegistrationNotice, mailVerificationLink } from './account-links.ts'

export const CHECK_MAIL = 'Check your mail: we sent a link to confirm your address.'

export async function registerAccount(deps: { sql: Sql; boss: PgBoss; config: Config }, email: string, passwordHash: string): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const user = await insertUser(tx, { email, passwordHash, authMethod: 'email' })
    if (user) return mailVerificationLink(tx, deps, { id: user.id, email: user.email! })
    const existing = await findUserByEmail(tx, email)
    if (existing?.email) await mailRegistrationNotice(tx, deps, { id: existing.id, email: existing.email })
  })
}
