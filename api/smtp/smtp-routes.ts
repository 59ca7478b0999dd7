// SMTP credentials per alias (README "Sending from an alias"): create, list, reveal, regenerate, delete.
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import * as v from 'valibot'
import { findAlias } from '../../db/aliases.ts'
import { deleteCredential, findCredential, insertCredential, listCredentialsForAlias, replacePassword, type SmtpCredentialRow } from '../../db/smtp-credentials.ts'
import { text } from '../../shared/auth-schemas.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { jsonBody } from '../http/validate.ts'
import { generateSmtpPassword, protectSmtpPassword, smtpPasswordBox } from './smtp-password.ts'

const CreateCredentialSchema = v.object({ aliasId: v.pipe(text('Alias ID is required'), v.nonEmpty('Alias ID is required'), v.uuid('Alias ID is required')) })

const view = (row: SmtpCredentialRow) => ({ id: row.id, aliasId: row.aliasId, username: row.username, active: row.active, createdAt: row.createdAt.toISOString() })

export const smtpRoutes = new Hono<AppEnv>()
  .post('/', signedIn, jsonBody(CreateCredentialSchema), async (c) => {
    const { sql, config } = c.var.deps
    const alias = await findAlias(sql, c.var.user.id, c.req.valid('json').aliasId)
    if (!alias) return notFound(c)
    const id = randomUUID()
    const password = generateSmtpPassword()
    const username = `${alias.alias}@${alias.domain}`.toLowerCase()
    const created = await insertCredential(sql, { id, aliasId: alias.id, userId: c.var.user.id, username, ...(await protectSmtpPassword(config.secretKey, id, password)) })
    if (!created) return c.json({ message: 'SMTP credentials already exist for this alias' }, 409)
    return c.json({ credential: { id, aliasId: alias.id, username, password, host: config.smtpPublicHost, ports: config.smtpPublicPorts } }, 201)
  })
  .get('/alias/:aliasId', signedIn, async (c) => {
    const rows = await listCredentialsForAlias(c.var.deps.sql, c.var.user.id, c.req.param('aliasId'))
    if (rows.length === 0 && !(await findAlias(c.var.deps.sql, c.var.user.id, c.req.param('aliasId')))) return notFound(c)
    return c.json({ credentials: rows.map(view), host: c.var.deps.config.smtpPublicHost, ports: c.var.deps.config.smtpPublicPorts })
  })
  .get('/alias/:aliasId/password', signedIn, async (c) => {
    const [row] = await listCredentialsForAlias(c.var.deps.sql, c.var.user.id, c.req.param('aliasId'))
    if (!row) return notFound(c)
    return c.json({ success: true, password: smtpPasswordBox(c.var.deps.config.secretKey).openText(row.encryptedPassword, row.id) })
  })
  .patch('/:credentialId/alias/:aliasId/regenerate', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const row = await findCredential(sql, c.var.user.id, c.req.param('aliasId'), c.req.param('credentialId'))
    if (!row) return notFound(c)
    const password = generateSmtpPassword()
    const secret = await protectSmtpPassword(config.secretKey, row.id, password)
    await replacePassword(sql, row.id, secret.encryptedPassword, secret.passwordVerifier)
    return c.json({ credential: { ...view(row), password } })
  })
  .delete('/:credentialId/alias/:aliasId', signedIn, async (c) => {
    if (!(await deleteCredential(c.var.deps.sql, c.var.user.id, c.req.param('aliasId'), c.req.param('credentialId')))) return notFound(c)
    return c.json({ message: 'SMTP credentials deleted' })
  })
