// The sync-mailbox job: one connected mailbox brought up to date from its IMAP server.
//
// Per enabled folder (INBOX by default): a new UIDVALIDITY drops the folder's mail and starts
// over (RFC 3501 §2.3.1.1); changes to stored mail are picked up with QRESYNC (RFC 7162 §3.2.5:
// SELECT … QRESYNC reports VANISHED UIDs and changed flags), else CONDSTORE (FETCH … CHANGEDSINCE
// for flags), else by comparing every stored UID's flags; expunges without QRESYNC by comparing
// the server's UID list with ours. New mail: fetch-new-mail.ts.
//
// The server is input like any other (lib/imap-limits.ts): every command has a byte budget and a
// deadline, the sync a time slice after which it yields its slot and goes on in a new job at the
// back of the queue, an account at most MAX_FOLDERS folders; a batch that came with more than its
// server announced is fetched again one message at a time on a new connection.
import type { ImapFlow } from 'imapflow'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { getProviderForSync, markProviderError, markProviderIdle, markProviderSyncing, type ProviderForSync } from '../../db/email-providers.ts'
import { listFolders, resetFolderCursor, setFolderState, setFolderStatus, upsertFolder, type MailboxFolderRow } from '../../db/mailbox-folders.ts'
import { setSyncJobStatus } from '../../db/mailbox-sync-jobs.ts'
import { applyServerFlags, deleteEmailsByUid, deleteFolderEmails, hasPendingChanges, listFolderFlags, type ServerFlags } from '../../db/received-emails.ts'
import type { Config } from '../../lib/config.ts'
import { log } from '../../lib/log.ts'
import { receivedMailBox } from '../../lib/received-mail-box.ts'
import { fetchNewMessages, RefetchSinglyError, type FetchCounts } from './fetch-new-mail.ts'
import { classifyImapError, closeImap, ImapConnectError } from '../../lib/imap-connect.ts'
import { BUDGETS, ImapGuard } from '../../lib/imap-limits.ts'
import { loginMailbox } from '../../db/mailbox-login.ts'
import { openCredentials } from '../../lib/mailbox-credentials.ts'
import { queues, type Payload, type WorkContext } from '../../db/queues.ts'
import { requestMailboxChanges, requestSync } from '../../db/sync-requests.ts'
import { SYNC_LOCK } from '../../db/sync-lock.ts'
import { imapUid, serverFlags, storableInteger, storableModseq } from './server-values.ts'
import { isCleanLine } from './stored-text.ts'

export interface SyncDeps {
  sql: Sql
  boss: PgBoss
  config: Config
  /** an extra trusted CA for IMAP servers (PEM), besides the system's and NODE_EXTRA_CA_CERTS */
  imapCa?: string
  /** aborted when the process stops: every IMAP connection of a sync is closed at once */
  stopSignal?: AbortSignal
}

/** Flag updates sent to Postgres per statement. */
const FLAG_CHUNK = 2000
/** Folders of one account that are recorded (INBOX and the special-use ones first). */
export const MAX_FOLDERS = 1000
/** Longest folder name recorded (a name is sent back to the server as it is). */
const MAX_FOLDER_NAME = 1000
/** Expunges and flag changes taken from a QRESYNC SELECT (RFC 7162 §3.2.5.2). */
const QRESYNC_EVENTS = 1_000_000
/** New connections one sync opens for batches that came with more than announced. */
const MAX_RECONNECTS = 10

/** Another sync of this account holds its lock (a job that outlived its lease): retried later. */
class SyncBusyError extends Error {
  override name = 'SyncBusyError'
}

export function syncMailboxHandler(deps: SyncDeps) {
  return async ({ providerId }: Payload<typeof queues.syncMailbox>, ctx: WorkContext): Promise<void> => {
    const { sql } = deps
    const provider = await getProviderForSync(sql, providerId)
    if (!provider) return // the account was deleted; its job rows went with it
    // A session-level lock on a connection of its own: released if this process dies, so two
    // syncs of one account never run at once even when a job outlives its lease.
    const lockConnection = await sql.reserve()
    try {
      const [{ locked }] = await lockConnection<{ locked: boolean }[]>`select pg_try_advisory_lock(${SYNC_LOCK}, hashtext(${providerId})) as locked`
      if (!locked) throw new SyncBusyError('another sync of this account is running')
      try {
        await setSyncJobStatus(sql, ctx.jobId, 'running')
        const { added, fetched, more } = await syncProvider(deps, provider)
        // the account's state and the job's in one transaction: a reader never sees one without the other
        await sql.begin(async (tx) => {
          await markProviderIdle(tx, providerId)
          await setSyncJobStatus(tx, ctx.jobId, 'done', { newEmailsCount: added, fetchedCount: fetched })
          // changes whose write-back stopped (a refused login since fixed, an outage past the
          // write-back's retries) go to the server now that it answers, not at the user's next change
          if (await hasPendingChanges(tx, providerId)) await requestMailboxChanges(tx, deps.boss, providerId)
        })
        // the slice ended with mail left: the rest comes in a job behind the ones now waiting
        if (more) await requestSync(sql, deps.boss, providerId)
        log.info('sync.done', { job: ctx.jobId, provider: providerId, added, more })
      } catch (error) {
        const failure = classifyImapError(error, { host: '', port: 0 })
        const lastAttempt = ctx.retryCount >= queues.syncMailbox.retryLimit
        // the kind and the underlying error's name and code: never its message (it can quote the server or the mail)
        const cause = error as { name?: string; code?: string }
        log.warn('sync.failed', { job: ctx.jobId, provider: providerId, kind: failure.kind, cause: cause?.name, code: cause?.code, attempt: ctx.retryCount })
        const final = failure.permanent || lastAttempt
        await sql.begin(async (tx) => {
          await markProviderError(tx, providerId, failure.message, failure.permanent, final)
          await setSyncJobStatus(tx, ctx.jobId, final ? 'failed' : 'queued', { error: failure.message })
        })
        if (final) return
        throw failure // retried with backoff
      } finally {
        await lockConnection`select pg_advisory_unlock(${SYNC_LOCK}, hashtext(${providerId}))`
      }
    } finally {
      lockConnection.release()
    }
  }
}

/** A logged-in connection and the guard that bounds what its server may cost. */
interface Session { client: ImapFlow; guard: ImapGuard }

/**
 * Logs in, records the folders, syncs the enabled ones; how many messages were fetched and added,
 * and whether the slice ended with mail left. A batch whose server sent more than it announced
 * closes the connection; the sync logs in again and fetches those messages one at a time.
 */
export async function syncProvider(deps: SyncDeps, provider: ProviderForSync): Promise<FetchCounts> {
  const { config } = deps
  const creds = openCredentials(config, provider)
  const sliceEnd = Date.now() + config.sync.sliceMs
  const singly = new Map<string, Set<number>>()
  const total: FetchCounts = { added: 0, fetched: 0, more: false }
  let statuses = new Map<string, FolderStatus>()
  for (let connection = 0; ; connection++) {
    let session: Session
    try {
      const client = await loginMailbox(deps, provider)
      // past the slice, the commands in flight get one command's time to finish before the connection is closed
      session = { client, guard: new ImapGuard(client, { deadlineMs: config.sync.sliceMs + config.sync.commandTimeoutMs, signal: deps.stopSignal }) }
    } catch (error) {
      // an account that synced before and is refused now: its server is down, not set up wrong
      throw classifyImapError(error, creds, { reachedBefore: provider.lastSyncAt !== null })
    }
    try {
      if (connection === 0) {
        // the account shows it is syncing from the login on (the first sync's "Connecting…" ends here)
        await markProviderSyncing(deps.sql, provider.id, 0)
        statuses = await recordFolders(deps, session, provider)
      }
      for (const folder of (await listFolders(deps.sql, provider.id)).filter((f) => f.enabled)) {
        if (!singly.has(folder.id)) singly.set(folder.id, new Set())
        // nothing moved since the folder was last synced to the end: no SELECT, nothing to ask
        if (singly.get(folder.id)!.size === 0 && unmoved(session.client, folder, statuses.get(folder.path))) continue
        const counts = await syncFolder(deps, session, provider, folder, { singly: singly.get(folder.id)!, sliceEnd })
        total.added += counts.added
        total.fetched += counts.fetched
        if (counts.more) {
          total.more = true
          break
        }
      }
      return total
    } catch (error) {
      if (error instanceof RefetchSinglyError && connection < MAX_RECONNECTS && !deps.stopSignal?.aborted) {
        log.warn('sync.refetch_singly', { provider: provider.id, messages: error.uids.length })
        for (const uid of error.uids) singly.get(error.folderId)?.add(uid)
        continue
      }
      throw error instanceof ImapConnectError ? error : classifyImapError(session.guard.error ?? error, creds)
    } finally {
      session.guard.dispose()
      await closeImap(session.client)
    }
  }
}

/** What STATUS said of a folder (RFC 3501 §6.3.10; HIGHESTMODSEQ with CONDSTORE, RFC 7162 §3.1.2). */
interface FolderStatus { messages?: number; uidNext?: number; uidValidity?: bigint; highestModseq?: bigint }

/**
 * A folder whose UIDVALIDITY, UIDNEXT, MESSAGES and HIGHESTMODSEQ are what its last complete sync
 * saw: no message came (UIDNEXT), none went (MESSAGES) and no flag changed (HIGHESTMODSEQ, RFC 7162
 * §3.1.2: any change to a message raises it), so selecting it would find nothing. Only with
 * CONDSTORE: without a MODSEQ a flag change shows in no STATUS item.
 */
function unmoved(client: ImapFlow, folder: MailboxFolderRow, status: FolderStatus | undefined): boolean {
  if (!status || !(client.enabled.has('CONDSTORE') || client.enabled.has('QRESYNC'))) return false
  const same = (stored: string | number | null, reported: bigint | number | undefined) =>
    stored !== null && reported !== undefined && String(stored) === String(reported)
  return same(folder.uidValidity, status.uidValidity) && same(folder.syncedUidNext, status.uidNext)
    && same(folder.syncedMessages, status.messages) && same(folder.highestModseq, status.highestModseq)
}

/**
 * Every folder is listed with its counts (STATUS, RFC 3501 §6.3.10; in the LIST where the server has
 * LIST-STATUS, RFC 5819); INBOX and the folders the user enabled are synced. At most MAX_FOLDERS
 * are recorded, INBOX and the special-use folders (RFC 6154) first; a name no folder row can hold
 * (a control character, an ill-formed string) is left out: it could not be shown or sent back.
 * Returns each recorded folder's STATUS, which tells whether it moved since its last sync.
 */
async function recordFolders(deps: SyncDeps, { client, guard }: Session, provider: ProviderForSync): Promise<Map<string, FolderStatus>> {
  const ms = deps.config.sync.commandTimeoutMs
  // without LIST-STATUS imapflow would send a STATUS for every folder listed, thousands of them:
  // here only the recorded ones are asked
  const listStatus = client.capabilities.has('LIST-STATUS')
  // HIGHESTMODSEQ is asked only of a server that has CONDSTORE (imapflow leaves it out otherwise)
  const statusQuery = { messages: true, unseen: true, uidNext: true, uidValidity: true, highestModseq: true }
  const statuses = new Map<string, FolderStatus>()
  const listed = await guard.run('list', { ...BUDGETS.list, ms }, () => client.list(listStatus ? { statusQuery } : {}))
  const selectable = listed.filter((f) => !f.flags.has('\\Noselect') && !f.flags.has('\\NonExistent') && recordableName(f.path))
  const isInbox = (f: (typeof listed)[number]) => f.specialUse === '\\Inbox' || f.path.toUpperCase() === 'INBOX'
  const ranked = [...selectable.filter(isInbox), ...selectable.filter((f) => !isInbox(f) && f.specialUse), ...selectable.filter((f) => !isInbox(f) && !f.specialUse)]
  if (ranked.length > MAX_FOLDERS || ranked.length < listed.length) log.warn('sync.folders_left_out', { provider: provider.id, listed: listed.length, kept: Math.min(ranked.length, MAX_FOLDERS) })
  for (const folder of ranked.slice(0, MAX_FOLDERS)) {
    // a thousand rows take seconds: a stop or the slice's deadline must not wait for them all
    guard.check()
    const row = await upsertFolder(deps.sql, provider.id, folder.path, folder.specialUse ?? null, isInbox(folder))
    const status = listStatus ? folder.status : await guard.run('status', { ...BUDGETS.status, ms }, () => client.status(folder.path, statusQuery))
    if (status) {
      await setFolderStatus(deps.sql, row.id, storableInteger(status.messages), storableInteger(status.unseen))
      statuses.set(row.path, status)
    }
  }
  return statuses
}

const recordableName = (path: string) => path.length > 0 && path.length <= MAX_FOLDER_NAME && isCleanLine(path)

async function syncFolder(deps: SyncDeps, { client, guard }: Session, provider: ProviderForSync, folder: MailboxFolderRow, run: { singly: Set<number>; sliceEnd: number }): Promise<FetchCounts> {
  const { sql, config } = deps
  const qresync = client.enabled.has('QRESYNC')
  const condstore = qresync || client.enabled.has('CONDSTORE')
  const resumable = folder.uidValidity !== null && folder.highestModseq !== null && folder.lastUid > 0
  // QRESYNC: the server reports, while selecting, what vanished and which flags changed since then
  // only UIDs we hold count, and at most QRESYNC_EVENTS of them: a server can announce a range of
  // billions in a few bytes; past that, the stored UIDs are compared with the server's instead
  const vanished: number[] = []
  const flagEvents: ServerFlags[] = []
  let overflow = false
  const held = (uid: number | undefined): uid is number => imapUid(uid) && uid <= folder.lastUid && !(overflow ||= vanished.length + flagEvents.length >= QRESYNC_EVENTS)
  const onExpunge = (e: { path: string; uid?: number; vanished: boolean }) => { if (e.path === folder.path && e.vanished && held(e.uid)) vanished.push(e.uid) }
  const onFlags = (e: { path: string; uid?: number; flags: Set<string>; modseq?: bigint }) => {
    if (e.path === folder.path && held(e.uid)) flagEvents.push(serverFlags(e.uid, e.flags, e.modseq))
  }
  client.on('expunge', onExpunge)
  client.on('flags', onFlags)
  const select = { ...BUDGETS.select, ms: config.sync.commandTimeoutMs }
  const lock = await guard.run('select', select, () => client.getMailboxLock(folder.path, {
    readOnly: true,
    ...(qresync && resumable ? { uidValidity: folder.uidValidity!, changedSince: folder.highestModseq! } : {}),
  }))
  try {
    const box = client.mailbox
    if (!box) throw new Error('mailbox not selected')
    // RFC 3501 §2.3.1.1: a 32-bit number; a server that sends another cannot be synced
    if (!imapUid(Number(box.uidValidity))) throw Object.assign(new Error('invalid UIDVALIDITY'), { code: 'EPROTO' })
    const uidValidity = BigInt(box.uidValidity)
    const highestModseq = condstore ? storableModseq(box.highestModseq) : null
    const exists = storableInteger(box.exists)
    const uidNext = imapUid(box.uidNext) ? box.uidNext : null
    let lastUid = folder.lastUid
    if (folder.uidValidity !== uidValidity.toString()) {
      // RFC 3501 §2.3.1.1: the old UIDs mean nothing now; drop and fetch the folder again
      await sql.begin(async (tx) => {
        await deleteFolderEmails(tx, folder.id)
        await resetFolderCursor(tx, folder.id, uidValidity)
      })
      lastUid = 0
    } else if (lastUid > 0) {
      await syncStoredMessages(deps, { client, guard }, folder, { qresync: qresync && resumable && !overflow, condstore, vanished, flagEvents })
    }
    const counts = await fetchNewMessages({
      sql, client, guard, box: receivedMailBox(config), provider, folder, maxMessageBytes: config.maxMessageBytes,
      commandTimeoutMs: config.sync.commandTimeoutMs, singly: run.singly, sliceEnd: run.sliceEnd,
    }, lastUid, exists)
    // the folder's MODSEQ is kept only once all its mail is in: a sync cut short asks again next time
    // with its UIDNEXT and count as SELECT reported them: mail that came since moves them, so a
    // later STATUS does not pass for unmoved
    if (!counts.more) await setFolderState(sql, folder.id, highestModseq, exists, uidNext)
    return counts
  } catch (error) {
    if (error instanceof RefetchSinglyError) error.folderId = folder.id
    throw error
  } finally {
    lock.release()
    client.off('expunge', onExpunge)
    client.off('flags', onFlags)
  }
}

interface StoredSync { qresync: boolean; condstore: boolean; vanished: number[]; flagEvents: ServerFlags[] }

/** Flag changes and expunges made by other clients to messages we already hold. */
async function syncStoredMessages(deps: SyncDeps, { client, guard }: Session, folder: MailboxFolderRow, s: StoredSync): Promise<void> {
  const { sql } = deps
  const range = `1:${folder.lastUid}`
  const budget = { ...BUDGETS.flags, ms: deps.config.sync.commandTimeoutMs }
  let changed = 0
  let removed = 0
  if (s.qresync) {
    removed += await deleteEmailsByUid(sql, folder.id, s.vanished)
    for (let i = 0; i < s.flagEvents.length; i += FLAG_CHUNK) changed += await applyServerFlags(sql, folder.id, s.flagEvents.slice(i, i + FLAG_CHUNK))
  } else {
    // CONDSTORE: only what changed since the last sync; without it every message's flags
    const options = s.condstore && folder.highestModseq ? { uid: true, changedSince: BigInt(folder.highestModseq) } : { uid: true }
    await guard.run('fetch-flags', budget, async () => {
      let chunk: ServerFlags[] = []
      for await (const message of client.fetch(range, { uid: true, flags: true }, options)) {
        if (!imapUid(message.uid) || message.uid > folder.lastUid) continue
        chunk.push(serverFlags(message.uid, message.flags, message.modseq))
        if (chunk.length >= FLAG_CHUNK) {
          changed += await applyServerFlags(sql, folder.id, chunk)
          chunk = []
        }
      }
      changed += await applyServerFlags(sql, folder.id, chunk)
    })
    // expunges: UIDs we hold that the server no longer lists
    const onServer = new Set((await guard.run('search', { ...BUDGETS.search, ms: budget.ms }, () => client.search({ uid: range }, { uid: true }))) || [])
    const gone = (await listFolderFlags(sql, folder.id)).filter((m) => !onServer.has(m.uid)).map((m) => m.uid)
    removed += await deleteEmailsByUid(sql, folder.id, gone)
  }
  if (changed || removed) log.info('sync.changes', { folder: folder.id, changed, removed, qresync: s.qresync })
}
