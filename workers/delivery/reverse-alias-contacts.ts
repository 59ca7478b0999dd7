// The reverse alias standing for an outside address on one alias: found, or made on first use.
// Made outside the delivery's transaction on purpose: a message that went out naming a reverse
// alias must find it in place even if the delivery's own transaction is rolled back afterwards.
// A reverse alias never changes once made (it goes only with its alias, whose deliveries then
// fail as alias-deleted before they ask), so each delivery process keeps those it used: a
// forward from a known contact costs no round trip for them.
import type { Sql } from '../../db/client.ts'
import { findContactReverseAliases, upsertReverseAliases, type ReverseAlias } from '../../db/reverse-aliases.ts'
import type { Mailbox } from '../../lib/mime-words.ts'
import { newReverseAliasLocalPart } from '../mail/reverse-alias-address.ts'

/** A contact's reverse alias: its address, and its row id (the contact's id: link tokens and counters name it). */
export interface KnownContact { address: string; id: string }

export class ReverseAliasContacts {
  /** `alias id` + space + lower-cased contact address -> its reverse alias, least recently used first */
  readonly #known = new Map<string, KnownContact>()
  readonly #max: number

  constructor(max = 10_000) {
    this.#max = max
  }

  /** Lower-cased address of each contact -> the address of its reverse alias on `alias`. */
  async addresses(sql: Sql, alias: { id: string; domain: string }, contacts: Mailbox[]): Promise<Map<string, string>> {
    return new Map([...(await this.contacts(sql, alias, contacts))].map(([key, known]) => [key, known.address]))
  }

  /** Lower-cased address of each contact -> its reverse alias on `alias` (address and id: the contact's id). */
  async contacts(sql: Sql, alias: { id: string; domain: string }, contacts: Mailbox[]): Promise<Map<string, KnownContact>> {
    const byAddress = new Map<string, KnownContact>()
    const unknown = new Map<string, Mailbox>()
    for (const contact of contacts) {
      const key = contact.address.toLowerCase()
      if (byAddress.has(key) || unknown.has(key)) continue
      const known = this.#known.get(`${alias.id} ${key}`)
      if (known === undefined) unknown.set(key, contact)
      else {
        byAddress.set(key, known)
        this.#remember(alias.id, key, known) // most recently used again
      }
    }
    if (unknown.size === 0) return byAddress
    const asked = [...unknown.values()]
    const rows = await upsertReverseAliases(sql, alias.id, alias.domain, asked.map((c) => ({ localPart: newReverseAliasLocalPart(), contactAddress: c.address, contactName: c.name || null })))
    const found = (list: ReverseAlias[]) => {
      for (const row of list) {
        const key = row.contactAddress.toLowerCase()
        if (!unknown.delete(key)) continue
        const known = { address: `${row.localPart}@${row.domain}`, id: row.id }
        byAddress.set(key, known)
        this.#remember(alias.id, key, known)
      }
    }
    found(rows)
    // made by a concurrent delivery after the statement above began
    if (unknown.size) found(await findContactReverseAliases(sql, alias.id, [...unknown.values()].map((c) => c.address)))
    if (unknown.size) throw new Error('reverse alias neither made nor found')
    return byAddress
  }

  #remember(aliasId: string, key: string, known: KnownContact): void {
    const entry = `${aliasId} ${key}`
    this.#known.delete(entry)
    this.#known.set(entry, known)
    if (this.#known.size > this.#max) this.#known.delete(this.#known.keys().next().value!)
  }
}
