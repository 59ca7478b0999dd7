// "Send a test mail" to a forward target (issue 30): a short message from no-reply, DKIM-signed,
// handed to the relay now, so the owner hears at once whether the target's server takes mail
// again. Taken: the bounce mark and count are cleared and the forwards held for the mark leave.
// Refused: the server's code and reason, and the mark stays.
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { enableBouncedTarget } from '../../db/target-bounces.ts'
import { releaseHeldDeliveries } from '../../db/forward-targets.ts'
import { noReplyAddress } from '../../db/queue-system-mail.ts'
import { enqueue, queues } from '../../db/queues.ts'
import type { Config } from '../../lib/config.ts'
import { composeMessage } from '../../lib/compose-message.ts'
import { loadDkimKeys } from '../../lib/dkim-keys.ts'
import { DkimSigner } from '../../lib/dkim-signer.ts'
import { createOutboundTransport, PermanentDeliveryError, relayReason } from '../../lib/outbound-transport.ts'

export type TestMailResult = { delivered: true } | { delivered: false; code?: number; reason: string }

/** Clears the target's bounce mark and releases the forwards it held; false when it was not marked. */
export async function reenableTarget(deps: { sql: Sql; boss: PgBoss }, userId: string, email: string): Promise<boolean> {
  return deps.sql.begin(async (tx) => {
    if (!(await enableBouncedTarget(tx, userId, email))) return false
    for (const deliveryId of await releaseHeldDeliveries(tx, userId, email)) await enqueue(tx, deps.boss, queues.forwardEmail, { deliveryId })
    return true
  })
}

export async function sendTargetTestMail(deps: { sql: Sql; boss: PgBoss; config: Config }, userId: string, email: string): Promise<TestMailResult> {
  const { config } = deps
  const domain = config.mailDomains[0]
  const id = randomUUID()
  const raw = await composeMessage({
    from: `Veilmail <${noReplyAddress(config)}>`, to: email, subject: 'Veilmail test mail',
    body: 'This is a test mail from Veilmail. Your aliases forward to this address again.\n',
    messageId: `<${id}@${domain}>`, date: new Date(),
  })
  const signed = await new DkimSigner(loadDkimKeys(config)).sign(raw, domain)
  const transport = createOutboundTransport({ ...config, outboundSmtpConnections: 1 })
  try {
    await transport.send({ id, from: noReplyAddress(config), to: email, raw: signed })
  } catch (error) {
    if (error instanceof PermanentDeliveryError) return { delivered: false, code: error.responseCode, reason: relayReason(error) }
    return { delivered: false, reason: 'The mail could not be handed to the relay now. Please try again later.' }
  } finally {
    transport.close()
  }
  await reenableTarget(deps, userId, email)
  return { delivered: true }
}
