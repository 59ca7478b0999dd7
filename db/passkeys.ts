// passkeys: WebAuthn credentials. Every read and change of a user's passkey names the user, so
// another user's id finds nothing.
import type { Db } from './client.ts'

export interface PasskeyRow {
  id: string
  userId: string
  credentialId: string
  publicKey: Buffer
  counter: number
  transports: string[]
  name: string
  createdAt: Date
  lastUsedAt: Date | null
}

const columns = 'id, user_id, credential_id, public_key, counter::float8 as counter, transports, name, created_at, last_used_at'

export async function insertPasskey(db: Db, p: { userId: string; credentialId: string; publicKey: Uint8Array; counter: number; transports: string[]; name: string }): Promise<PasskeyRow | undefined> {
  const [row] = await db<PasskeyRow[]>`
    insert into passkeys (user_id, credential_id, public_key, counter, transports, name)
    values (${p.userId}, ${p.credentialId}, ${Buffer.from(p.publicKey)}, ${p.counter}, ${p.transports}, ${p.name})
    on conflict (credential_id) do nothing
    returning ${db.unsafe(columns)}`
  return row
}

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db<PasskeyRow[]>`select ${db.unsafe(columns)} from passkeys where user_id = ${userId} order by created_at, id`
}

export async function findUserPasskey(db: Db, userId: string, id: string): Promise<PasskeyRow | undefined> {
  const [row] = await db<PasskeyRow[]>`select ${db.unsafe(columns)} from passkeys where id = ${id} and user_id = ${userId}`
  return row
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const [row] = await db<{ count: number }[]>`select count(*)::int as count from passkeys where user_id = ${userId}`
  return row.count
}

/** The passkey a sign-in names by its credential id (whoever's it is: the assertion decides). */
export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db<PasskeyRow[]>`
    select ${db.unsafe(columns.split(', ').map((c) => `p.${c}`).join(', '))}
    from passkeys p join users u on u.id = p.user_id
    where p.credential_id = ${credentialId} and u.deleted_at is null`
  return row
}

/** After a verified assertion: the new signature counter, and when it was last used. */
export async function markPasskeyUsed(db: Db, id: string, counter: number): Promise<void> {
  await db`update passkeys set counter = ${counter}, last_used_at = now() where id = ${id}`
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
  const [row] = await db<PasskeyRow[]>`update passkeys set name = ${name} where id = ${id} and user_id = ${userId} returning ${db.unsafe(columns)}`
  return row
}

export async function deletePasskey(db: Db, userId: string, id: string): Promise<PasskeyRow | undefined> {
  const [row] = await db<PasskeyRow[]>`delete from passkeys where id = ${id} and user_id = ${userId} returning ${db.unsafe(columns)}`
  return row
}
