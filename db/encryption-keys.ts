// encryption_keys for their owner. Every function takes the owner's id and filters by it.
// Changes run in a transaction that first calls lockKeyOwner, so "first key is the default" and
// "promote the newest key" hold when two requests of one user race.
import type { Db } from './client.ts'

export interface EncryptionKeyRow {
  id: string
  publicKey: string
  keyName: string
  isDefault: boolean
  createdAt: Date
}

export interface EncryptionKeyWithSecret extends EncryptionKeyRow {
  encryptedPrivateKey: string
}

export interface NewEncryptionKey {
  keyName: string
  publicKey: string
  encryptedPrivateKey: string
}

/** Serializes one user's key changes (the user row's lock; FK checks elsewhere do not wait on it). */
export async function lockKeyOwner(db: Db, userId: string): Promise<void> {
  await db`select id from users where id = ${userId} for no key update`
}

export async function listEncryptionKeys(db: Db, userId: string): Promise<EncryptionKeyRow[]> {
  return db<EncryptionKeyRow[]>`
    select id, public_key, key_name, is_default, created_at from encryption_keys
    where user_id = ${userId} order by created_at desc, id`
}

export async function findEncryptionKey(db: Db, userId: string, keyId: string): Promise<EncryptionKeyWithSecret | undefined> {
  const [row] = await db<EncryptionKeyWithSecret[]>`
    select id, public_key, encrypted_private_key, key_name, is_default, created_at from encryption_keys
    where id = ${keyId} and user_id = ${userId}`
  return row
}

/** Inserts a key, the default when the user has none; undefined when the user already has `maxKeys`. */
export async function insertEncryptionKey(db: Db, userId: string, key: NewEncryptionKey, maxKeys: number): Promise<EncryptionKeyRow | undefined> {
  const [row] = await db<EncryptionKeyRow[]>`
    insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name, is_default)
    select ${userId}, ${key.publicKey}, ${key.encryptedPrivateKey}, ${key.keyName},
           not exists (select 1 from encryption_keys where user_id = ${userId} and is_default)
    where (select count(*) from encryption_keys where user_id = ${userId}) < ${maxKeys}
    returning id, public_key, key_name, is_default, created_at`
  return row
}

/** Makes `keyId` the user's only default; false when the user has no such key. */
export async function setDefaultEncryptionKey(db: Db, userId: string, keyId: string): Promise<boolean> {
  const rows = await db<{ id: string }[]>`
    update encryption_keys set is_default = (id = ${keyId})
    where user_id = ${userId} and (is_default or id = ${keyId})
      and exists (select 1 from encryption_keys where id = ${keyId} and user_id = ${userId})
    returning id`
  return rows.some((r) => r.id === keyId)
}

/** Deletes a key; when it was the default, the newest remaining key becomes the default. */
export async function deleteEncryptionKey(db: Db, userId: string, keyId: string): Promise<boolean> {
  const [row] = await db<{ deleted: number }[]>`
    with gone as (
      delete from encryption_keys where id = ${keyId} and user_id = ${userId} returning is_default
    ), promoted as (
      update encryption_keys set is_default = true
      where id = (select id from encryption_keys where user_id = ${userId} and id <> ${keyId} order by created_at desc, id limit 1)
        and exists (select 1 from gone where is_default)
      returning id
    )
    select (select count(*) from gone)::int as deleted`
  return row.deleted === 1
}

/** The recipient mail to this user is encrypted to, if they have keys. */
export async function findDefaultPublicKey(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db<{ publicKey: string }[]>`
    select public_key from encryption_keys where user_id = ${userId} and is_default`
  return row?.publicKey
}
