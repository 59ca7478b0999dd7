// users: one statement per function. E-mail is stored lower-cased and trimmed.
import type { SessionUser } from '../shared/auth-schemas.ts'
import type { Db } from './client.ts'

/** The user as every auth call returns it, plus what stays on the server. */
export interface UserRow extends Omit<SessionUser, 'emailVerified' | 'createdAt'> {
  passwordHash: string | null
  /** when a link mailed to `email` was followed; null while the address is unproven */
  emailVerifiedAt: Date | null
  createdAt: Date
  updatedAt: Date
}

const columns = 'id, email, password_hash, wallet_address, google_id, auth_method, first_name, last_name, profile_image_url, balance, email_verified_at, created_at, updated_at'

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`select ${db.unsafe(columns)} from users where id = ${id} and deleted_at is null`
  return row
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`select ${db.unsafe(columns)} from users where lower(email) = lower(${email}) and deleted_at is null`
  return row
}

export async function findUserByWallet(db: Db, walletAddress: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`select ${db.unsafe(columns)} from users where wallet_address = ${walletAddress} and deleted_at is null`
  return row
}

export async function findUserByGoogleId(db: Db, googleId: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`select ${db.unsafe(columns)} from users where google_id = ${googleId} and deleted_at is null`
  return row
}

export interface NewUser {
  email?: string | null
  passwordHash?: string | null
  walletAddress?: string | null
  googleId?: string | null
  authMethod: UserRow['authMethod']
  firstName?: string | null
  lastName?: string | null
  profileImageUrl?: string | null
  emailVerified?: boolean
}

/** Inserts a user; returns undefined when the e-mail, wallet or Google id is taken. */
export async function insertUser(db: Db, user: NewUser): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`
    insert into users (email, password_hash, wallet_address, google_id, auth_method, first_name, last_name, profile_image_url, email_verified_at)
    values (${user.email?.toLowerCase() ?? null}, ${user.passwordHash ?? null}, ${user.walletAddress ?? null}, ${user.googleId ?? null},
            ${user.authMethod}, ${user.firstName ?? null}, ${user.lastName ?? null}, ${user.profileImageUrl ?? null},
            ${user.emailVerified ? new Date() : null})
    on conflict do nothing
    returning ${db.unsafe(columns)}`
  return row
}

export async function linkGoogleAccount(db: Db, userId: string, googleId: string): Promise<void> {
  await db`update users set google_id = ${googleId}, updated_at = now() where id = ${userId}`
}

/** Marks the address proven, if it is still the account's address; false otherwise. */
export async function markEmailVerified(db: Db, userId: string, email: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`
    update users set email_verified_at = coalesce(email_verified_at, now()), updated_at = now()
    where id = ${userId} and lower(email) = lower(${email}) and deleted_at is null
    returning ${db.unsafe(columns)}`
  return row
}

/** A password reset through a link mailed to `email`: sets the password and, as the link proves the address, verifies it. */
export async function resetPassword(db: Db, userId: string, email: string, passwordHash: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow[]>`
    update users set password_hash = ${passwordHash}, email_verified_at = coalesce(email_verified_at, now()), updated_at = now()
    where id = ${userId} and lower(email) = lower(${email}) and deleted_at is null
    returning ${db.unsafe(columns)}`
  return row
}

/**
 * Cuts an account off at once: it can no longer sign in and its identifiers are free again.
 * The row itself (and everything that cascades from it) is erased by the account-cleanup job.
 */
export async function markUserDeleted(db: Db, userId: string): Promise<boolean> {
  const rows = await db`
    update users set deleted_at = now(), email = null, password_hash = null, wallet_address = null,
                     google_id = null, first_name = null, last_name = null, profile_image_url = null, updated_at = now()
    where id = ${userId} and deleted_at is null returning id`
  return rows.length === 1
}

export async function eraseDeletedUser(db: Db, userId: string): Promise<void> {
  await db`delete from users where id = ${userId} and deleted_at is not null`
}

/** A password change by the signed-in owner (who gave the current one). */
export async function updatePasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db`update users set password_hash = ${passwordHash}, updated_at = now() where id = ${userId} and deleted_at is null`
}
