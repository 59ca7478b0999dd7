// Connected mailboxes (README "Connecting a mailbox"). Adding an account stores
// it sealed and queues its first sync, whose login is the credentials check; the browser polls
// the job. Every IMAP connection is made by the sync process, never here.
import { randomUUID } from 'node:crypto'
import { Hono, type MiddlewareHandler } from 'hono'
import type { AuthedEnv } from '../auth/session.ts'
import * as v from 'valibot'
import { deleteEmailProvider, findEmailProvider, getProviderForSync, insertEmailProvider, stalledProviderIds, listEmailProviders, reconnectProvider, updateProviderSmtp, type EmailProviderRow } from '../../db/email-providers.ts'
import { forgetFolderCursor, listFolderCounts, setFolderEnabled, type FolderCountRow } from '../../db/mailbox-folders.ts'
import { deleteFolderEmails } from '../../db/received-emails.ts'
import { deleteWaitingMailboxJobs } from '../../db/mailbox-jobs.ts'
import { findSyncJob } from '../../db/mailbox-sync-jobs.ts'
import type { Config } from '../../lib/config.ts'
import { queues } from '../../db/queues.ts'
import { isOAuth, openCredentials, openSmtpLogin, sealCredentials, sealSmtpLogin } from '../../lib/mailbox-credentials.ts'
import { requestSync } from '../../db/sync-requests.ts'
import type { AppEnv } from '../context.ts'
import { notFound, signedIn } from '../http/ownership.ts'
import { fieldErrors, jsonBody } from '../http/validate.ts'
import { CreateEmailProviderSchema, ImapCredentialsSchema, PROVIDER_PRESETS, UpdateEmailProviderSchema, UpdateFolderSchema, type EmailProviderView } from '../../shared/email-provider-schemas.ts'
import { smtpServerOf, UpdateSmtpSchema, type SmtpView } from '../../shared/mailbox-smtp-schemas.ts'

/** The account's sending settings as the browser sees them: the server, whose login (a user name, never a password). */
function smtpView(config: Config, row: EmailProviderRow & { smtpCredentials?: Buffer | null }): SmtpView | null {
  const server = smtpServerOf(row)
  if (!server) return null
  const username = row.smtpCredentials ? openSmtpLogin(config, row.id, row.smtpCredentials).user : null
  return { ...server, preset: row.smtpHost === null, username }
}

function providerView(config: Config, row: EmailProviderRow & { credentials?: Buffer }, folders: FolderCountRow[], stalled: Set<string>): EmailProviderView {
  const creds = row.credentials ? openCredentials(config, { id: row.id, credentials: row.credentials }) : undefined
  return {
    id: row.id, provider: row.provider, email: row.email, username: creds?.email || row.email,
    host: creds?.host ?? '', port: creds?.port ?? 993, secure: creds?.secure ?? true,
    isActive: row.isActive, state: row.state, progressDone: row.progressDone, progressTotal: row.progressTotal,
    lastError: row.lastError, needsAttention: row.authFailed, stalled: stalled.has(row.id),
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
    folders: folders.filter((f) => f.providerId === row.id)
      .map(({ id, path, specialUse, enabled, messageCount, unseenCount, stored, unread }) => ({ id, path, specialUse, enabled, messageCount, unseenCount, stored, unread })),
    smtp: smtpView(config, row),
  }
}

/** base64 → JSON → the credentials object; undefined when it is not that. */
function decodeCredentials(encoded: string): unknown {
  try {
    if (!/^[A-Za-z0-9+/=_-]+$/.test(encoded.trim())) return undefined
    return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'))
  } catch {
    return undefined
  }
}

async function viewOf(c: { var: AppEnv['Variables'] & { user: { id: string } } }, providerId: string): Promise<EmailProviderView | null> {
  const { sql, config } = c.var.deps
  const row = await getProviderForSync(sql, providerId)
  if (!row || row.userId !== c.var.user.id) return null
  const [folders, stalled] = await Promise.all([listFolderCounts(sql, c.var.user.id), stalledProviderIds(sql, c.var.user.id)])
  return providerView(config, row, folders, stalled)
}

/** Another user's account answers 404 whatever the body: checked before the body is. */
const ownAccount: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  if (!(await findEmailProvider(c.var.deps.sql, c.var.user.id, c.req.param('providerId')!))) return notFound(c)
  await next()
}

export const emailProviderRoutes = new Hono<AppEnv>()
  .get('/', signedIn, async (c) => {
    const { sql, config } = c.var.deps
    const [rows, folders, stalled] = await Promise.all([listEmailProviders(sql, c.var.user.id), listFolderCounts(sql, c.var.user.id), stalledProviderIds(sql, c.var.user.id)])
    const sealed = await Promise.all(rows.map((r) => getProviderForSync(sql, r.id)))
    return c.json({ success: true, providers: sealed.filter((r) => r !== undefined).map((r) => providerView(config, r, folders, stalled)) })
  })
  .post('/', signedIn, jsonBody(CreateEmailProviderSchema), async (c) => {
    const input = c.req.valid('json')
    const { sql, boss, config } = c.var.deps
    if (input.provider === 'outlook') {
      // the tokens come from Microsoft to the server (GET /api/auth/microsoft), never through the browser
      return config.microsoft
        ? c.json({ message: 'Outlook accounts are connected with Microsoft sign-in: open /api/auth/microsoft.', errors: { provider: ['Connect Outlook with Microsoft sign-in'] } }, 400)
        : c.json({ message: 'Outlook accounts are connected with Microsoft sign-in, which this server does not offer (MICROSOFT_CLIENT_ID is not set).', errors: { provider: ['Outlook sign-in is not available'] } }, 400)
    }
    const decoded = decodeCredentials(input.encryptedCredentials)
    if (decoded === undefined || typeof decoded !== 'object' || decoded === null) {
      return c.json({ message: 'Credentials must be base64 of a JSON object { email, password, host, port, secure }', errors: { encryptedCredentials: ['Credentials could not be read'] } }, 400)
    }
    const parsed = v.safeParse(ImapCredentialsSchema, decoded, { abortPipeEarly: true })
    if (!parsed.success) return c.json({ message: parsed.issues[0].message, errors: fieldErrors(parsed.issues) }, 400)
    const preset = PROVIDER_PRESETS[input.provider]
    const creds = preset ? { ...preset } : { host: parsed.output.host, port: parsed.output.port ?? 993, secure: parsed.output.secure }
    if (!creds.host) return c.json({ message: 'Please enter the IMAP server address.', errors: { host: ['Please enter the IMAP server address.'] } }, 400)
    const id = randomUUID()
    const credentials = sealCredentials(config, id, { email: parsed.output.email || input.email, password: parsed.output.password, ...creds })
    const row = await insertEmailProvider(sql, { id, userId: c.var.user.id, provider: input.provider, email: input.email, credentials })
    if (!row) return c.json({ message: 'This mailbox is already connected.', errors: { email: ['This mailbox is already connected.'] } }, 409)
    const jobId = await requestSync(sql, boss, id)
    return c.json({ message: 'Connecting…', provider: await viewOf(c, id), jobId }, 202)
  })
  .delete('/:providerId', signedIn, async (c) => {
    const { sql } = c.var.deps
    const providerId = c.req.param('providerId')
    // the account, its mail (foreign keys) and its waiting jobs go together
    const deleted = await sql.begin(async (tx) => {
      if (!(await deleteEmailProvider(tx, c.var.user.id, providerId))) return false
      await deleteWaitingMailboxJobs(tx, providerId, [queues.syncMailbox.name, queues.mailboxChanges.name])
      return true
    })
    if (!deleted) return notFound(c)
    return c.json({ message: 'Email account removed' })
  })
  .patch('/:providerId', signedIn, ownAccount, jsonBody(UpdateEmailProviderSchema), async (c) => {
    // a login that failed is fixed here instead of removing the account; as when adding, the next
    // sync's login is the check (the API never connects to IMAP), its job id for the page to poll
    const { sql, boss, config } = c.var.deps
    const providerId = c.req.param('providerId')
    const input = c.req.valid('json')
    const row = (await getProviderForSync(sql, providerId))!
    const stored = openCredentials(config, row)
    if (isOAuth(stored)) {
      return c.json({ message: 'Outlook accounts sign in with Microsoft: press Re-authenticate instead.', errors: { provider: ['Outlook signs in with Microsoft'] } }, 400)
    }
    const preset = PROVIDER_PRESETS[row.provider]
    if (preset && input.host !== undefined && input.host !== preset.host) {
      return c.json({ message: `The IMAP server of this account is ${preset.host}.`, errors: { host: [`The IMAP server of this account is ${preset.host}.`] } }, 400)
    }
    const server = preset ?? { host: input.host ?? stored.host, port: input.port ?? stored.port, secure: input.secure ?? stored.secure }
    if (!server.host) return c.json({ message: 'Please enter the IMAP server address.', errors: { host: ['Please enter the IMAP server address.'] } }, 400)
    const login = { email: input.username === undefined ? stored.email : input.username || row.email, password: input.password || stored.password }
    const credentials = sealCredentials(config, providerId, { ...login, ...server })
    if (!(await reconnectProvider(sql, c.var.user.id, providerId, credentials, false))) return notFound(c)
    const jobId = await requestSync(sql, boss, providerId)
    return c.json({ message: 'Connecting…', provider: await viewOf(c, providerId), jobId }, 202)
  })
  .post('/:providerId/sync', signedIn, async (c) => {
    const { sql, boss } = c.var.deps
    const providerId = c.req.param('providerId')
    if (!(await findEmailProvider(sql, c.var.user.id, providerId))) return notFound(c)
    const jobId = await requestSync(sql, boss, providerId)
    if (!jobId) return notFound(c)
    return c.json({ message: 'Sync queued', jobId, provider: await viewOf(c, providerId) }, 202)
  })
  .patch('/:providerId/folders', signedIn, ownAccount, jsonBody(UpdateFolderSchema), async (c) => {
    const { sql, boss } = c.var.deps
    const providerId = c.req.param('providerId')
    const { path, enabled } = c.req.valid('json')
    if (path.toUpperCase() === 'INBOX' && !enabled) {
      return c.json({ message: 'INBOX is always synced.', errors: { path: ['INBOX is always synced.'] } }, 400)
    }
    // turned off: the folder's stored mail goes with it, and its cursor, so turning it on again fetches it anew
    const folder = await sql.begin(async (tx) => {
      const row = await setFolderEnabled(tx, providerId, path, enabled)
      if (row && !enabled) {
        await deleteFolderEmails(tx, row.id)
        await forgetFolderCursor(tx, row.id)
      }
      return row
    })
    if (!folder) return c.json({ message: 'This mailbox has no such folder.', errors: { path: ['No such folder'] } }, 404)
    const jobId = enabled ? await requestSync(sql, boss, providerId) : undefined
    return c.json({ message: enabled ? 'Folder will be synced' : 'Folder no longer synced', jobId: jobId ?? null, provider: await viewOf(c, providerId) })
  })
  .put('/:providerId/smtp', signedIn, ownAccount, jsonBody(UpdateSmtpSchema), async (c) => {
    const { sql, config } = c.var.deps
    const providerId = c.req.param('providerId')
    const input = c.req.valid('json')
    const row = (await getProviderForSync(sql, providerId))!
    // a user name alone keeps the password stored for that same user name; a new user name needs its password
    const kept = row.smtpCredentials ? openSmtpLogin(config, providerId, row.smtpCredentials) : undefined
    const password = input.password || (kept && kept.user === input.username ? kept.password : '')
    if (input.username && !password) return c.json({ message: 'Please enter the SMTP password.', errors: { password: ['Please enter the SMTP password.'] } }, 400)
    if (!input.username && input.password) return c.json({ message: 'Please enter the SMTP user name.', errors: { username: ['Please enter the SMTP user name.'] } }, 400)
    const credentials = input.username ? sealSmtpLogin(config, providerId, { user: input.username, password }) : null
    if (!(await updateProviderSmtp(sql, c.var.user.id, providerId, { host: input.host, port: input.port, security: input.security, credentials }))) return notFound(c)
    return c.json({ message: 'Sending settings saved', provider: await viewOf(c, providerId) })
  })
  .get('/:providerId/sync-jobs/:syncJobId', signedIn, async (c) => {
    const { sql } = c.var.deps
    const job = await findSyncJob(sql, c.var.user.id, c.req.param('syncJobId'))
    if (!job || job.providerId !== c.req.param('providerId')) return notFound(c)
    return c.json({
      success: true as const, jobId: job.id, providerId: job.providerId, status: job.status,
      syncResult: { newEmailsCount: job.newEmailsCount }, error: job.error, provider: await viewOf(c, job.providerId),
    })
  })
