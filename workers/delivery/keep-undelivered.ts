// A forward to an e-mail target that failed for good is not thrown away (issue #6): with an age
// key it is kept encrypted to that key for 30 days and listed on the owner's dashboard; without
// one (or over the storage budget) only the failure is recorded. Runs in the delivery's
// transaction, so the report and the "failed" mark commit together.
import type { Tx } from '../../db/client.ts'
import type { DeliveryAlias } from '../../db/alias-routing.ts'
import { insertUndeliveredMessage, sumUndeliveredBytes } from '../../db/undelivered-messages.ts'
import { log } from '../../lib/log.ts'

/** Armored copies one user may hold at once; past it, failures are only reported. */
export const UNDELIVERED_BUDGET_BYTES = 200 * 1024 * 1024
const MAX_REASON = 300


/** Why a forward that was retried until the queue gave up failed, from the delivery's record. */
export function exhaustedReason(attempts: number, lastError: string | null): string {
  return `No delivery after ${attempts} attempts${lastError ? ` (last error: ${lastError})` : ''}`
}

export interface UndeliveredInput {
  /** 'email' unless given; a webhook failure is always a report without copy */
  kind?: 'email' | 'webhook'
  alias: DeliveryAlias
  target: string
  reason: string
  /** the server's reply code of a hard bounce */
  code?: number
  /** the copy (armored age) and its recipient, when the owner has a key */
  copy?: { armored: string; recipient: string }
}

export async function keepUndelivered(tx: Tx, input: UndeliveredInput): Promise<void> {
  let { copy, reason } = input
  if (copy && (await sumUndeliveredBytes(tx, input.alias.userId)) + copy.armored.length > UNDELIVERED_BUDGET_BYTES) {
    copy = undefined
    reason = `${reason}; no copy kept: ${UNDELIVERED_BUDGET_BYTES / 1024 / 1024} MB of undelivered mail is already kept`.slice(0, MAX_REASON * 2)
  }
  const id = await insertUndeliveredMessage(tx, {
    kind: input.kind, userId: input.alias.userId, aliasId: input.alias.id, target: input.target, reason, code: input.code,
    encrypted: copy?.armored ?? null, recipient: copy?.recipient ?? null,
  })
  log.info('undelivered.recorded', { undelivered: id, alias: input.alias.id, kept: Boolean(copy) })
}
