// What a signed link token does when it is used (issue 30): the List-Unsubscribe URL's one-click
// POST (RFC 8058), its mailto (RFC 2369, at the MX) and the block link all end here. A token is
// checked (ours, unexpired: lib/link-token.ts), spent once (db/link-token-uses.ts) and acted on in
// one transaction, and what it did is recorded for the owner's dashboard (Undo). A GET never
// acts: `describeLinkToken` only says what a use would do, for the confirmation page.
import type { Sql } from './client.ts'
import { blockContact, findContactForLink } from './alias-contacts.ts'
import { findAliasOwner, pauseAliasById } from './alias-pause.ts'
import { isLinkTokenSpent, spendLinkToken } from './link-token-uses.ts'
import { getSenderBlockSettings } from './sender-block-settings.ts'
import { insertUnsubscribeEvent, type UnsubscribeAction, type UnsubscribeVia } from './unsubscribe-events.ts'
import { linkTokenHash, verifyLinkToken, type LinkSubject } from '../lib/link-token.ts'

export type LinkRefusal = 'invalid' | 'expired' | 'used' | 'gone'

export interface LinkEffect {
  action: UnsubscribeAction
  alias: string
  /** the blocked sender; null when the alias is paused */
  contact: string | null
}

interface Target { userId: string; aliasId: string; alias: string; contactId: string | null; contact: string | null }

async function targetOf(sql: Sql, subject: LinkSubject): Promise<Target | undefined> {
  if (subject.kind === 'alias') {
    const alias = await findAliasOwner(sql, subject.id)
    return alias && { userId: alias.userId, aliasId: subject.id, alias: alias.address, contactId: null, contact: null }
  }
  const contact = await findContactForLink(sql, subject.id)
  const alias = contact && (await findAliasOwner(sql, contact.aliasId))
  return contact && alias && { userId: contact.userId, aliasId: contact.aliasId, alias: alias.address, contactId: contact.id, contact: contact.contactAddress }
}

/** The block link always blocks; Unsubscribe does what the owner chose, pausing when there is no sender to block. */
async function actionOf(sql: Sql, subject: LinkSubject, target: Target): Promise<UnsubscribeAction> {
  if (!target.contactId) return 'pause'
  if (subject.purpose === 'block') return 'block'
  return (await getSenderBlockSettings(sql, target.userId)).unsubscribeAction
}

function checked(secretKey: string, token: string): LinkSubject | LinkRefusal {
  const subject = verifyLinkToken(secretKey, token)
  return subject === undefined ? 'invalid' : subject
}

/** What using the token would do, or why it would be refused. Changes nothing. */
export async function describeLinkToken(sql: Sql, secretKey: string, token: string): Promise<LinkEffect | LinkRefusal> {
  const subject = checked(secretKey, token)
  if (typeof subject === 'string') return subject
  if (await isLinkTokenSpent(sql, linkTokenHash(token))) return 'used'
  const target = await targetOf(sql, subject)
  if (!target) return 'gone'
  const action = await actionOf(sql, subject, target)
  return { action, alias: target.alias, contact: action === 'block' ? target.contact : null }
}

/** Uses the token: spent, acted on and recorded together, or refused with nothing changed. */
export async function useLinkToken(sql: Sql, secretKey: string, token: string, via: UnsubscribeVia): Promise<LinkEffect | LinkRefusal> {
  const subject = checked(secretKey, token)
  if (typeof subject === 'string') return subject
  return sql.begin(async (tx) => {
    if (!(await spendLinkToken(tx, linkTokenHash(token), subject.expiresAt))) return 'used' as const
    const target = await targetOf(tx as unknown as Sql, subject)
    if (!target) return 'gone' as const
    const action = await actionOf(tx as unknown as Sql, subject, target)
    if (action === 'block') await blockContact(tx, target.contactId!)
    else await pauseAliasById(tx, target.aliasId)
    await insertUnsubscribeEvent(tx, { userId: target.userId, aliasId: target.aliasId, contactId: action === 'block' ? target.contactId : null, action, via })
    return { action, alias: target.alias, contact: action === 'block' ? target.contact : null }
  })
}
