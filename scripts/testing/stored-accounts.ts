// Users and connected accounts as the database tests of the stored mail need them: rows only (no
// IMAP server), folders made as the sync makes them.
import { randomUUID } from 'node:crypto'
import type { Sql } from '../../db/client.ts'
import { insertEmailProvider } from '../../db/email-providers.ts'
import { upsertFolder } from '../../db/mailbox-folders.ts'
import { insertUser } from '../../db/users.ts'

export interface StoredAccount { userId: string; providerId: string; folders: Record<string, string> }

/** A new user with a unique address; answers its id. */
export async function storedUser(sql: Sql): Promise<string> {
  return (await insertUser(sql, { email: `${randomUUID()}@veilmail.test`, authMethod: 'email' }))!.id
}

/** An account of `userId` with the folders at `paths` (enabled), their ids by path. */
export async function storedAccount(sql: Sql, userId: string, paths: string[]): Promise<StoredAccount> {
  const providerId = randomUUID()
  await insertEmailProvider(sql, { id: providerId, userId, provider: 'other', email: `${providerId}@example.test`, credentials: Buffer.from('x') })
  const folders: Record<string, string> = {}
  for (const path of paths) folders[path] = (await upsertFolder(sql, providerId, path, null, true)).id
  return { userId, providerId, folders }
}
