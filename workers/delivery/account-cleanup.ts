// account-cleanup: erases a deleted account's row and everything that cascades from it.
import type { Sql } from '../../db/client.ts'
import { eraseDeletedUser } from '../../db/users.ts'
import type { Payload, queues } from '../../db/queues.ts'

export async function accountCleanup(sql: Sql, payload: Payload<typeof queues.accountCleanup>): Promise<void> {
  await eraseDeletedUser(sql, payload.userId)
}
