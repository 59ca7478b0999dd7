// The signed-in user's account: GET /api/account-stats, DELETE /api/account.
import { countAccountData } from '../../db/account-stats.ts'
import { deleteUserSessions } from '../../db/sessions.ts'
import { markUserDeleted } from '../../db/users.ts'
import { deleteUserAliases, releaseUserDomains } from '../../db/account-deletion.ts'
import { deleteUserApiKeys } from '../../db/api-keys.ts'
import { enqueue, queues } from '../../db/queues.ts'
import { endSession } from '../auth/session.ts'
import { signedInUnverified } from '../http/ownership.ts'
import type { AppEnv } from '../context.ts'
import { Hono } from 'hono'

export const accountRoutes = new Hono<AppEnv>()
  .get('/account-stats', signedInUnverified, async (c) => {
    return c.json(await countAccountData(c.var.deps.sql, c.var.user.id))
  })
  .delete('/account', signedInUnverified, async (c) => {
    const { sql, boss } = c.var.deps
    const userId = c.var.user.id
    // At once, in one transaction: no session works, no alias receives, no identifier is
    // held. The erasure of the rest is a job committed with it (finished within 30 days at
    // the latest; in practice within minutes).
    await sql.begin(async (tx) => {
      await markUserDeleted(tx, userId)
      await deleteUserSessions(tx, userId)
      await deleteUserAliases(tx, userId)
      await releaseUserDomains(tx, userId)
      await deleteUserApiKeys(tx, userId)
      await enqueue(tx, boss, queues.accountCleanup, { userId })
    })
    await endSession(c)
    return c.json({ message: 'Account deleted' })
  })
