// Passkeys in settings: GET /api/account/passkeys, POST /api/account/passkeys/options (a
// registration challenge for this browser), POST /api/account/passkeys { name, response } (add),
// PATCH /api/account/passkeys/{id} { name }, DELETE /api/account/passkeys/{id}.
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import { Hono } from 'hono'
import { deletePasskey, findUserPasskey, insertPasskey, listPasskeys, renamePasskey, type PasskeyRow } from '../../db/passkeys.ts'
import { AddPasskeySchema, RenamePasskeySchema, type PasskeyInfo } from '../../shared/account-protection-schemas.ts'
import { queueSecurityNotice } from '../auth/security-notice.ts'
import { registrationOptions, verifyRegistration } from '../auth/webauthn.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'

const day = (date: Date) => date.toISOString().slice(0, 10)
const info = (p: PasskeyRow): PasskeyInfo => ({ id: p.id, name: p.name, createdAt: day(p.createdAt), lastUsedAt: p.lastUsedAt && day(p.lastUsedAt) })
const REFUSED = 'The passkey could not be added. Please try again.'

export const passkeyRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => c.json({ passkeys: (await listPasskeys(c.var.deps.sql, c.var.user.id)).map(info) }))
  .post('/options', signedIn, async (c) => c.json(await registrationOptions(c, c.var.user)))
  .post('/', signedIn, jsonBody(AddPasskeySchema), async (c) => {
    const { name, response } = c.req.valid('json')
    const user = c.var.user
    const credential = await verifyRegistration(c, user.id, response as unknown as RegistrationResponseJSON)
    if (!credential) return c.json({ message: REFUSED }, 400)
    const { sql } = c.var.deps
    const added = await sql.begin(async (tx) => {
      const row = await insertPasskey(tx, { userId: user.id, credentialId: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports ?? [], name })
      if (row) await queueSecurityNotice(tx, c.var.deps, user, 'passkey-added', `Its name: ${name}`)
      return row
    })
    if (!added) return c.json({ message: 'This passkey is already registered' }, 409)
    return c.json({ passkey: info(added) }, 201)
  })
  // Whose passkey it is is answered before the body is read: another user's id is 404 whatever is sent.
  .patch('/:passkeyId', signedIn, async (c, next) => ((await findUserPasskey(c.var.deps.sql, c.var.user.id, c.req.param('passkeyId'))) ? next() : notFound(c)), jsonBody(RenamePasskeySchema), async (c) => {
    const renamed = await renamePasskey(c.var.deps.sql, c.var.user.id, c.req.param('passkeyId'), c.req.valid('json').name)
    return renamed ? c.json({ passkey: info(renamed) }) : notFound(c)
  })
  .delete('/:passkeyId', signedIn, async (c) => {
    const { sql } = c.var.deps
    const user = c.var.user
    const removed = await sql.begin(async (tx) => {
      const row = await deletePasskey(tx, user.id, c.req.param('passkeyId'))
      if (row) await queueSecurityNotice(tx, c.var.deps, user, 'passkey-removed', `Its name: ${row.name}`)
      return row
    })
    return removed ? c.json({ message: 'Passkey removed' }) : notFound(c)
  })
