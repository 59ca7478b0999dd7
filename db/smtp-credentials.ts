// smtp_credentials: one per alias; the username is the alias address.
import type { Db } from './client.ts'

export interface SmtpCredentialRow {
  id: string
  aliasId: string
  userId: string
  username: string
  encryptedPassword: Buffer
  passwordVerifier: string
  active: boolean
  createdAt: Date
  updatedAt: Date
}

const columns = 'id, alias_id, user_id, username, encrypted_password, password_verifier, active, created_at, updated_at'

export async function listCredentialsForAlias(db: Db, userId: string, aliasId: string): Promise<SmtpCredentialRow[]> {
  return db<SmtpCredentialRow[]>`select ${db.unsafe(columns)} from smtp_credentials where user_id = ${userId} and alias_id = ${aliasId} order by created_at`
}

export async function findCredential(db: Db, userId: string, aliasId: string, credentialId: string): Promise<SmtpCredentialRow | undefined> {
  const [row] = await db<SmtpCredentialRow[]>`
    select ${db.unsafe(columns)} from smtp_credentials where id = ${credentialId} and alias_id = ${aliasId} and user_id = ${userId}`
  return row
}

/** For SMTP AUTH: the credential by its username, with its alias still able to send. */
export async function findCredentialForLogin(db: Db, username: string): Promise<(SmtpCredentialRow & { alias: string; domain: string; aliasActive: boolean }) | undefined> {
  const [row] = await db<(SmtpCredentialRow & { alias: string; domain: string; aliasActive: boolean })[]>`
    select s.id, s.alias_id, s.user_id, s.username, s.encrypted_password, s.password_verifier, s.active, s.created_at, s.updated_at,
           a.alias, a.domain, (a.active and a.forward_to <> 'null') as alias_active
    from smtp_credentials s join aliases a on a.id = s.alias_id
    join users u on u.id = s.user_id and u.deleted_at is null
    where lower(s.username) = lower(${username}) and s.active`
  return row
}

export async function insertCredential(db: Db, c: { id: string; aliasId: string; userId: string; username: string; encryptedPassword: Buffer; passwordVerifier: string }): Promise<boolean> {
  const rows = await db`
    insert into smtp_credentials (id, alias_id, user_id, username, encrypted_password, password_verifier)
    values (${c.id}, ${c.aliasId}, ${c.userId}, ${c.username}, ${c.encryptedPassword}, ${c.passwordVerifier})
    on conflict do nothing returning id`
  return rows.length === 1
}

export async function replacePassword(db: Db, credentialId: string, encryptedPassword: Buffer, passwordVerifier: string): Promise<void> {
  await db`update smtp_credentials set encrypted_password = ${encryptedPassword}, password_verifier = ${passwordVerifier}, updated_at = now() where id = ${credentialId}`
}

export async function deleteCredential(db: Db, userId: string, aliasId: string, credentialId: string): Promise<boolean> {
  const rows = await db`delete from smtp_credentials where id = ${credentialId} and alias_id = ${aliasId} and user_id = ${userId} returning id`
  return rows.length === 1
}

/** After an alias is renamed its credentials log in with the new address. */
export async function syncCredentialUsernames(db: Db, aliasId: string): Promise<void> {
  await db`update smtp_credentials s set username = lower(a.alias || '@' || a.domain), updated_at = now()
           from aliases a where a.id = s.alias_id and a.id = ${aliasId}`
}
