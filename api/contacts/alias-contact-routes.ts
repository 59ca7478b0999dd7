// An alias's contacts (issue 30): the senders that have reverse aliases on it, with their
// forwards, last mail and block switch. Blocked: their mail to this alias is refused or dropped
// at the MX (workers/mail/sender-blocks.ts).
import { Hono } from 'hono'
import { isOwnContact, listAliasContacts, setContactBlocked, type AliasContact } from '../../db/alias-contacts.ts'
import { findAlias } from '../../db/aliases.ts'
import { ContactBlockSchema, type ContactView } from '../../shared/sender-block-schemas.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'

export function contactView(row: AliasContact): ContactView {
  return {
    id: row.id, address: row.contactAddress, name: row.contactName, firstMailAt: row.createdAt.toISOString(),
    lastMailAt: row.lastMailAt?.toISOString() ?? null, forwarded: Number(row.forwarded), blocked: Number(row.blocked),
    blockedAt: row.blockedAt?.toISOString() ?? null,
  }
}

export const aliasContactRoutes = new Hono<AppEnv>()
  .get('/:aliasId', signedIn, async (c) => {
    const { sql } = c.var.deps
    if (!(await findAlias(sql, c.var.user.id, c.req.param('aliasId')))) return notFound(c)
    return c.json({ contacts: (await listAliasContacts(sql, c.var.user.id, c.req.param('aliasId'))).map(contactView) })
  })
  // another user's contact answers 404 before its body is read
  .patch('/:aliasId/:contactId', signedIn, async (c, next) => {
    if (!(await isOwnContact(c.var.deps.sql, c.var.user.id, c.req.param('aliasId')!, c.req.param('contactId')!))) return notFound(c)
    await next()
  }, jsonBody(ContactBlockSchema), async (c) => {
    const row = await setContactBlocked(c.var.deps.sql, c.var.user.id, c.req.param('aliasId'), c.req.param('contactId'), c.req.valid('json').blocked)
    if (!row) return notFound(c)
    return c.json({ contact: contactView(row) })
  })
