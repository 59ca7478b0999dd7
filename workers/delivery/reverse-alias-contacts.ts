// The reverse alias standing for an outside address on one alias: found, or made on first use.
// Made outside the delivery's transaction on purpose: a message that went out naming a reverse
// alias must find it in place even if the delivery's own transaction is rolled back afterwards.
import type { Sql } from '../../db/client.ts'
import { upsertReverseAlias } from '../../db/reverse-aliases.ts'
import type { Mailbox } from '../mail/mime-words.ts'
import { newReverseAliasLocalPart } from '../mail/reverse-alias-address.ts'

export async function reverseAliasAddresses(sql: Sql, alias: { id: string; domain: string }, contacts: Mailbox[]): Promise<Map<string, string>> {
  const byAddress = new Map<string, string>()
  for (const contact of contacts) {
    const key = contact.address.toLowerCase()
    if (byAddress.has(key)) continue
    const row = await upsertReverseAlias(sql, {
      aliasId: alias.id, domain: alias.domain, localPart: newReverseAliasLocalPart(), contactAddress: contact.address, contactName: contact.name || null,
    })
    byAddress.set(key, `${row.localPart}@${row.domain}`)
  }
  return byAddress
}
