// email_providers: connected mailboxes. `credentials` is sealed and only the sync process opens
// it; the functions the API uses never select it.
import type { Db } from './client.ts'
import { syncLockHeld } from './sync-lock.ts'

export type ProviderKind = 'gmail' | 'outlook' | 'yahoo' | 'other'
export type ProviderState = 'connecting' | 'idle' | 'syncing' | 'error'

export interface EmailProviderRow {
  id: string
  userId: string
  provider: ProviderKind
  email: string
  isActive: boolean
  state: ProviderState
  progressDone: number
  progressTotal: number
  lastError: string | null
  authFailed: boolean
  lastSyncAt: Date | null
  createdAt: Date
  updatedAt: Date
  /** its own SMTP server for sending as it (all null: its provider's preset, or not set up) */
  smtpHost: string | null
  smtpPort: number | null
  smtpSecurity: 'tls' | 'starttls' | null
}

/** What the sync process needs: the row and its sealed credentials (and the SMTP login of its own, if any). */
export interface ProviderForSync extends EmailProviderRow {
  credentials: Buffer
  smtpCredentials: Buffer | null
}

const columns = (db: Db) => db`
  id, user_id, provider, email, is_active, state, progress_done, progress_total, last_error, auth_failed, last_sync_at, created_at, updated_at,
  smtp_host, smtp_port, smtp_security`

export interface NewEmailProvider {
  id: string
  userId: string
  provider: ProviderKind
  email: string
  credentials: Buffer
}

/** Undefined when the user has already connected this address. */
export async function insertEmailProvider(db: Db, p: NewEmailProvider): Promise<EmailProviderRow | undefined> {
  const [row] = await db<EmailProviderRow[]>`
    insert into email_providers (id, user_id, provider, email, credentials)
    values (${p.id}, ${p.userId}, ${p.provider}, ${p.email}, ${p.credentials})
    on conflict (user_id, lower(email)) do nothing
    returning ${columns(db)}`
  return row
}

export async function listEmailProviders(db: Db, userId: string): Promise<EmailProviderRow[]> {
  return db<EmailProviderRow[]>`select ${columns(db)} from email_providers where user_id = ${userId} order by created_at, id`
}

/** The user's accounts that say they are syncing while no sync holds their lock (db/sync-lock.ts). */
export async function stalledProviderIds(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db<{ id: string }[]>`select id from email_providers where user_id = ${userId} and state = 'syncing' and not ${syncLockHeld(db, 'id')}`
  return new Set(rows.map((r) => r.id))
}

export async function findEmailProvider(db: Db, userId: string, id: string): Promise<EmailProviderRow | undefined> {
  const [row] = await db<EmailProviderRow[]>`select ${columns(db)} from email_providers where id = ${id} and user_id = ${userId}`
  return row
}

export async function getProviderForSync(db: Db, id: string): Promise<ProviderForSync | undefined> {
  const [row] = await db<ProviderForSync[]>`select ${columns(db)}, credentials, smtp_credentials from email_providers where id = ${id}`
  return row
}

/** The account's SMTP server, and its sealed login of its own or null for the IMAP login. False when the user has no such account. */
export async function updateProviderSmtp(db: Db, userId: string, id: string, smtp: { host: string; port: number; security: 'tls' | 'starttls'; credentials: Buffer | null }): Promise<boolean> {
  const rows = await db`
    update email_providers set smtp_host = ${smtp.host}, smtp_port = ${smtp.port}, smtp_security = ${smtp.security}, smtp_credentials = ${smtp.credentials}, updated_at = now()
    where id = ${id} and user_id = ${userId}
    returning id`
  return rows.length > 0
}

export async function findEmailProviderByEmail(db: Db, userId: string, email: string): Promise<EmailProviderRow | undefined> {
  const [row] = await db<EmailProviderRow[]>`select ${columns(db)} from email_providers where user_id = ${userId} and lower(email) = lower(${email})`
  return row
}

/** New sealed credentials for the account (an Outlook account's renewed tokens). */
export async function updateProviderCredentials(db: Db, id: string, credentials: Buffer): Promise<void> {
  await db`update email_providers set credentials = ${credentials}, updated_at = now() where id = ${id}`
}

/**
 * An account with a new login (an Outlook account signed in again; a password account's server,
 * user name or password edited): its error cleared and its schedule back on, its next sync the
 * first login. False when the user has no such account of this id (`oauth`: Outlook, else a password one).
 */
export async function reconnectProvider(db: Db, userId: string, id: string, credentials: Buffer, oauth: boolean): Promise<boolean> {
  const rows = await db`
    update email_providers set credentials = ${credentials}, state = 'connecting', last_error = null, auth_failed = false, is_active = true, updated_at = now()
    where id = ${id} and user_id = ${userId} and (provider = 'outlook') = ${oauth}
    returning id`
  return rows.length > 0
}

/** Removes the account; its folders, mail and attachments go with it (foreign keys cascade). */
export async function deleteEmailProvider(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db`delete from email_providers where id = ${id} and user_id = ${userId} returning id`
  return rows.length > 0
}

/**
 * A sync starts (or a sync or first login is queued again after an error the user fixed). Once a
 * sync has logged in, an earlier error (a server that was down) no longer says anything true.
 */
export async function markProviderSyncing(db: Db, id: string, total: number): Promise<void> {
  await db`
    update email_providers set state = 'syncing', progress_done = 0, progress_total = ${total}, last_error = null, updated_at = now()
    where id = ${id}`
}

export async function setProviderProgress(db: Db, id: string, done: number, total: number): Promise<void> {
  await db`update email_providers set progress_done = ${done}, progress_total = ${total}, updated_at = now() where id = ${id}`
}

export async function markProviderIdle(db: Db, id: string): Promise<void> {
  await db`
    update email_providers set state = 'idle', last_error = null, auth_failed = false, last_sync_at = now(), sync_failures = 0, sync_failed_at = null,
      updated_at = now()
    where id = ${id}`
}

/**
 * `authFailed` stops the schedule until the user fixes the account (or syncs by hand); `gaveUp` (the
 * sync's last retry failed) counts towards the schedule's backoff.
 */
export async function markProviderError(db: Db, id: string, message: string, authFailed: boolean, gaveUp = false): Promise<void> {
  await db`
    update email_providers set state = 'error', last_error = ${message}, auth_failed = ${authFailed},
      sync_failures = sync_failures + ${gaveUp ? 1 : 0}, sync_failed_at = case when ${gaveUp} then now() else sync_failed_at end, updated_at = now()
    where id = ${id}`
}

/** The longest wait the schedule's backoff gives an account whose syncs keep failing. */
const BACKOFF_MAX_SECONDS = 6 * 3600

/**
 * Active accounts due for a sync (never synced first). Each account has its own moment in every
 * `intervalSeconds`, offset from the others by a stable hash of its id (its phase), so a thousand
 * accounts added together are synced spread over the interval instead of all at once: an account is
 * due once its last sync is older than the latest of its moments. One with a sync queued or running
 * (queued within the interval) is left to it. One whose syncs gave up n times in a row waits
 * `intervalSeconds` × 2^n after the last of them, at most six hours.
 */
export async function dueProviderIds(db: Db, intervalSeconds: number, limit: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select p.id from email_providers p
    where p.is_active and not p.auth_failed and p.state <> 'connecting'
      and (p.last_sync_at is null or p.last_sync_at < now() - make_interval(secs => ${intervalSeconds}::float8 * ${schedulePhaseElapsed(db, intervalSeconds)}))
      and (p.sync_failures = 0 or p.sync_failed_at < now() - make_interval(secs => least(${intervalSeconds}::float8 * power(2, least(p.sync_failures, 20)), ${BACKOFF_MAX_SECONDS})))
      and not exists (
        select 1 from mailbox_sync_jobs j where j.provider_id = p.id and j.status in ('queued', 'running')
          and j.created_at > now() - make_interval(secs => ${intervalSeconds}))
    order by p.last_sync_at nulls first limit ${limit}`
  return rows.map((r) => r.id)
}

/**
 * How far (0 to 1 of the interval) now is past the account `p`'s latest moment: its phase is its id's
 * hash as a fraction of the interval, the moments are the phase plus whole intervals since the epoch.
 * An interval of 0 (every account due whenever asked) has no moments: nothing to wait for.
 */
const schedulePhaseElapsed = (db: Db, intervalSeconds: number) => intervalSeconds <= 0 ? db`0` : db`(
  (extract(epoch from now())::float8 / ${intervalSeconds}::float8 - (hashtext(p.id::text)::float8 + 2147483648) / 4294967296)
  - floor(extract(epoch from now())::float8 / ${intervalSeconds}::float8 - (hashtext(p.id::text)::float8 + 2147483648) / 4294967296))`

/** Serializes the requests that queue work for one account (Sync presses, the schedule). */
export async function lockEmailProvider(db: Db, id: string): Promise<{ userId: string } | undefined> {
  const [row] = await db<{ userId: string }[]>`select user_id from email_providers where id = ${id} for update`
  return row
}

/** A connected mailbox as the operator CLI shows it: the address's domain only, never the address or credentials. */
export interface ProviderOverview {
  id: string
  userId: string
  provider: ProviderKind
  domain: string
  state: ProviderState
  progressDone: number
  progressTotal: number
  lastError: string | null
  lastSyncAt: Date | null
  /** the schedule skips it (dueProviderIds) until the user fixes the account */
  scheduleStopped: boolean
  /** says it is syncing, but no sync holds its lock (db/sync-lock.ts) */
  stalled: boolean
  /** messages stored */
  messages: number
  createdAt: Date
}

/** Every account, those needing attention (schedule stopped, in error, stalled) first. */
export async function listProviderOverview(db: Db, limit: number): Promise<ProviderOverview[]> {
  return db<ProviderOverview[]>`
    select p.*, (select count(*)::int from received_emails e where e.provider_id = p.id) as messages
    from (
      select id, user_id, provider, lower(split_part(email, '@', 2)) as domain, state, progress_done, progress_total, last_error,
             last_sync_at, (not is_active or auth_failed) as schedule_stopped, state = 'syncing' and not ${syncLockHeld(db, 'id')} as stalled, created_at
      from email_providers
    ) p
    order by schedule_stopped desc, state = 'error' desc, stalled desc, created_at, id
    limit ${limit}`
}
