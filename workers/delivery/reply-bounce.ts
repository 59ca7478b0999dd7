// A reply sent through a reverse alias that the contact's server refused for good (issue 30): the
// owner gets a readable notice at once (they wrote it and are waiting for it to arrive), by mail to
// the account's address through the outgoing queue and on the dashboard beside the forward bounce
// notices (bounce_notices), naming the alias, the contact, and the server's code and reason, never
// the reply's content. In the delivery's transaction, so the notice exists exactly when the failure does.
import type { PgBoss } from 'pg-boss'
import type { Tx } from '../../db/client.ts'
import type { DeliveryAlias } from '../../db/alias-routing.ts'
import { insertBounceNotice } from '../../db/bounce-notices.ts'
import { queueSystemMail } from '../../db/queue-system-mail.ts'
import { findUserById } from '../../db/users.ts'
import type { Config } from '../../lib/config.ts'
import { log } from '../../lib/log.ts'

export async function noticeReplyBounce(tx: Tx, deps: { boss?: PgBoss; config: Config }, input: { alias: DeliveryAlias; contact: string; code: number; reason: string }): Promise<void> {
  const aliasAddress = `${input.alias.alias}@${input.alias.domain}`
  await insertBounceNotice(tx, input.alias.userId, [{ alias: aliasAddress, target: input.contact, code: input.code, reason: input.reason, count: 1, disabled: false, reply: true }])
  const user = await findUserById(tx, input.alias.userId)
  if (deps.boss && user?.email) {
    await queueSystemMail(tx, { boss: deps.boss, config: deps.config }, {
      userId: user.id, to: user.email, subject: 'Veilmail: your reply was not delivered',
      text: `Your reply from ${aliasAddress} to ${input.contact} was refused by the receiving server for good:\n\n` +
        `${input.reason}\n\nThe reply was not delivered. Check the address, or write to it another way.\n\n${deps.config.publicUrl}/dashboard\n`,
    })
  }
  log.info('bounce.reply_notice', { alias: input.alias.id, code: input.code, mailed: Boolean(deps.boss && user?.email) })
}
