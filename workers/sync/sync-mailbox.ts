// The sync-mailbox job: one connected mailbox brought up to date from its IMAP server.
//
// Per enabled folder (INBOX by default): a new UIDVALIDITY drops the folder's mail and starts
// over (RFC 3501 §2.3.1.1); changes to stored mail are picked up with QRESYNC (RFC 7162 §3.2.5:
// SELECT … QRESYNC reports VANISHED UIDs and changed flags), else CONDSTORE (FETCH … CHANGEDSINCE
// for flags), else by comparing every stored UID's flags; expunges without QRESYNC by comparing
// the server's UID list with ours. New mail is fetched above the highest stored UID in batches
// bounded by count and bytes, each committed with the folder cursor, so a killed sync resumes
// where it stopped and memory stays bounded whatever the mailbox size.
import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { setImmediate } from 'node:timers/promises'
import type { FetchMessageObject, ImapFlow } from 'imapflow'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { getProviderForSync, markProviderError, markProviderIdle, markProviderSyncing, setProviderProgress, type ProviderForSync } from '../../db/email-providers.ts'
import { advanceFolderUid, listFolders, resetFolderCursor, setFolderState, setFolderStatus, upsertFolder, type MailboxFolderRow } from '../../db/mailbox-folders.ts'
import { setSyncJobStatus } from '../../db/mailbox-sync-jobs.ts'
import { insertAttachments, type NewAttachment } from '../../db/received-attachments.ts'
import {
  applyServerFlags, deleteEmailsByUid, deleteFolderEmails, hasPendingChanges, insertReceivedEmails, listFolderFlags, type NewReceivedEmail, type ServerFlags,
} from '../../db/received-emails.ts'
import type { Config } from '../../lib/config.ts'
import { log } from '../../lib/log.ts'
import { SecretBox } from '../../lib/secret-box.ts'
import { classifyImapError, closeImap, ImapConnectError } from './imap-connect.ts'
import { loginMailbox, openCredentials } from './mailbox-login.ts'
import { queues, type Payload, type WorkContext } from '../../db/queues.ts'
import { assignThreads, type ThreadInput } from './mail-threads.ts'
import { readAhead } from './read-ahead.ts'
import { requestMailboxChanges } from './sync-requests.ts'
import { parseMessage, threadSubject, type ParsedMessage } from './received-mail.ts'

export interface SyncDeps {
  sql: Sql
  boss: PgBoss
  config: Config
  /** an extra trusted CA for IMAP servers (PEM), besides the system's and NODE_EXTRA_CA_CERTS */
  imapCa?: string
}

/**
 * Messages and bytes fetched per round trip and committed together (three batches are held at
 * once: one being stored, one being parsed, the next being fetched), and the size above which a
 * message is streamed alone instead of fetched whole.
 */
const BATCH_MESSAGES = 50
const BATCH_BYTES = 1024 * 1024
const STREAM_BYTES = 2 * 1024 * 1024
/** UIDs whose sizes are asked for in one FETCH, as the batches are made. */
const SIZE_CHUNK = 1000
/** Flag updates sent to Postgres per statement. */
const FLAG_CHUNK = 2000
/** pg_try_advisory_lock namespace of "a sync of this account is running". */
const SYNC_LOCK = 7_461_013

const boxes = new Map<string, SecretBox>()
/** One box per secret key, made once: deriving its key (HKDF) cost every list request ~70 µs. */
export function receivedMailBox(config: Pick<Config, 'secretKey'>): SecretBox {
  let box = boxes.get(config.secretKey)
  if (!box) boxes.set(config.secretKey, (box = new SecretBox(config.secretKey, 'received-mail')))
  return box
}

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
        const { added, fetched } = await syncProvider(deps, provider)
        // the account's state and the job's in one transaction: a reader never sees one without the other
        await sql.begin(async (tx) => {
          await markProviderIdle(tx, providerId)
          await setSyncJobStatus(tx, ctx.jobId, 'done', { newEmailsCount: added, fetchedCount: fetched })
          // changes whose write-back stopped (a refused login since fixed, an outage past the
          // write-back's retries) go to the server now that it answers, not at the user's next change
          if (await hasPendingChanges(tx, providerId)) await requestMailboxChanges(tx, deps.boss, providerId)
        })
        log.info('sync.done', { job: ctx.jobId, provider: providerId, added })
      } catch (error) {
        const failure = classifyImapError(error, { host: '', port: 0 })
        const lastAttempt = ctx.retryCount >= queues.syncMailbox.retryLimit
        // the kind and the underlying error's name and code: never its message (it can quote the server or the mail)
        const cause = error as { name?: string; code?: string }
        log.warn('sync.failed', { job: ctx.jobId, provider: providerId, kind: failure.kind, cause: cause?.name, code: cause?.code, attempt: ctx.retryCount })
        const final = failure.permanent || lastAttempt
        await sql.begin(async (tx) => {
          await markProviderError(tx, providerId, failure.message, failure.permanent)
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

/** Logs in, records the folders, syncs the enabled ones; how many messages were fetched and added. */
export async function syncProvider(deps: SyncDeps, provider: ProviderForSync): Promise<FetchCounts> {
  const { sql, config } = deps
  const creds = openCredentials(config, provider)
  let client: ImapFlow
  try {
    client = await loginMailbox(deps, provider)
  } catch (error) {
    throw classifyImapError(error, creds)
  }
  try {
    await markProviderSyncing(sql, provider.id, 0)
    // every folder is listed with its counts (STATUS, RFC 3501 §6.3.10; in the LIST where the
    // server has LIST-STATUS, RFC 5819); INBOX and the folders the user enabled are synced
    for (const folder of await client.list({ statusQuery: { messages: true, unseen: true } })) {
      if (folder.flags.has('\\Noselect') || folder.flags.has('\\NonExistent')) continue
      const inbox = folder.specialUse === '\\Inbox' || folder.path.toUpperCase() === 'INBOX'
      const row = await upsertFolder(sql, provider.id, folder.path, folder.specialUse ?? null, inbox)
      if (folder.status) await setFolderStatus(sql, row.id, folder.status.messages ?? 0, folder.status.unseen ?? 0)
    }
    const total: FetchCounts = { added: 0, fetched: 0 }
    for (const folder of (await listFolders(sql, provider.id)).filter((f) => f.enabled)) {
      const counts = await syncFolder(deps, client, provider, folder)
      total.added += counts.added
      total.fetched += counts.fetched
    }
    return total
  } catch (error) {
    throw error instanceof ImapConnectError ? error : classifyImapError(error, creds)
  } finally {
    await closeImap(client)
  }
}

interface FetchCounts { added: number; fetched: number }

async function syncFolder(deps: SyncDeps, client: ImapFlow, provider: ProviderForSync, folder: MailboxFolderRow): Promise<FetchCounts> {
  const { sql } = deps
  const qresync = client.enabled.has('QRESYNC')
  const condstore = qresync || client.enabled.has('CONDSTORE')
  const resumable = folder.uidValidity !== null && folder.highestModseq !== null && folder.lastUid > 0
  // QRESYNC: the server reports, while selecting, what vanished and which flags changed since then
  const vanished: number[] = []
  const flagEvents: ServerFlags[] = []
  const onExpunge = (e: { path: string; uid?: number; vanished: boolean }) => { if (e.path === folder.path && e.vanished && e.uid) vanished.push(e.uid) }
  const onFlags = (e: { path: string; uid?: number; flags: Set<string>; modseq?: bigint }) => {
    if (e.path === folder.path && e.uid) flagEvents.push(serverFlags(e.uid, e.flags, e.modseq))
  }
  client.on('expunge', onExpunge)
  client.on('flags', onFlags)
  const lock = await client.getMailboxLock(folder.path, {
    readOnly: true,
    ...(qresync && resumable ? { uidValidity: folder.uidValidity!, changedSince: folder.highestModseq! } : {}),
  })
  try {
    const box = client.mailbox
    if (!box) throw new Error('mailbox not selected')
    const uidValidity = BigInt(box.uidValidity)
    const highestModseq = condstore && box.highestModseq ? BigInt(box.highestModseq) : null
    let lastUid = folder.lastUid
    if (folder.uidValidity !== uidValidity.toString()) {
      // RFC 3501 §2.3.1.1: the old UIDs mean nothing now; drop and fetch the folder again
      await sql.begin(async (tx) => {
        await deleteFolderEmails(tx, folder.id)
        await resetFolderCursor(tx, folder.id, uidValidity)
      })
      lastUid = 0
    } else if (lastUid > 0) {
      await syncStoredMessages(deps, client, folder, { qresync: qresync && resumable, condstore, vanished, flagEvents })
    }
    const added = await fetchNewMessages(deps, client, provider, folder, lastUid, box.exists)
    await setFolderState(sql, folder.id, highestModseq, box.exists)
    return added
  } finally {
    lock.release()
    client.off('expunge', onExpunge)
    client.off('flags', onFlags)
  }
}

function serverFlags(uid: number, flags: Set<string> | undefined, modseq: bigint | undefined): ServerFlags {
  return { uid, isRead: !!flags?.has('\\Seen'), isStarred: !!flags?.has('\\Flagged'), isAnswered: !!flags?.has('\\Answered'), modseq: modseq ?? null }
}

interface StoredSync { qresync: boolean; condstore: boolean; vanished: number[]; flagEvents: ServerFlags[] }

/** Flag changes and expunges made by other clients to messages we already hold. */
async function syncStoredMessages(deps: SyncDeps, client: ImapFlow, folder: MailboxFolderRow, s: StoredSync): Promise<void> {
  const { sql } = deps
  const range = `1:${folder.lastUid}`
  let changed = 0
  let removed = 0
  if (s.qresync) {
    removed += await deleteEmailsByUid(sql, folder.id, s.vanished)
    for (let i = 0; i < s.flagEvents.length; i += FLAG_CHUNK) changed += await applyServerFlags(sql, folder.id, s.flagEvents.slice(i, i + FLAG_CHUNK))
  } else {
    // CONDSTORE: only what changed since the last sync; without it every message's flags
    const options = s.condstore && folder.highestModseq ? { uid: true, changedSince: BigInt(folder.highestModseq) } : { uid: true }
    let chunk: ServerFlags[] = []
    for await (const message of client.fetch(range, { uid: true, flags: true }, options)) {
      chunk.push(serverFlags(message.uid, message.flags, message.modseq))
      if (chunk.length >= FLAG_CHUNK) {
        changed += await applyServerFlags(sql, folder.id, chunk)
        chunk = []
      }
    }
    changed += await applyServerFlags(sql, folder.id, chunk)
    // expunges: UIDs we hold that the server no longer lists
    const onServer = new Set((await client.search({ uid: range }, { uid: true })) || [])
    const gone = (await listFolderFlags(sql, folder.id)).filter((m) => !onServer.has(m.uid)).map((m) => m.uid)
    removed += await deleteEmailsByUid(sql, folder.id, gone)
  }
  if (changed || removed) log.info('sync.changes', { folder: folder.id, changed, removed, qresync: s.qresync })
}

/**
 * New mail above `lastUid`, in bounded batches, each committed with the cursor. Three stages
 * overlap: while one batch is parsed, the next is fetched from the server (readAhead: one fetch
 * in flight, never more) and the one before is written to Postgres. So at most three batches are held: one
 * fetched, one being parsed, one being stored. A failure waits for the store in flight, so the
 * cursor is the last stored UID when it is thrown and the next sync resumes from there.
 */
async function fetchNewMessages(deps: SyncDeps, client: ImapFlow, provider: ProviderForSync, folder: MailboxFolderRow, lastUid: number, exists: number): Promise<FetchCounts> {
  const { sql } = deps
  if (exists === 0) return { added: 0, fetched: 0 }
  const found = (await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })) || []
  // "n:*" always matches the highest UID, even when it is below n (RFC 3501 §6.4.8)
  const uids = found.filter((u) => u > lastUid).sort((a, b) => a - b)
  await setProviderProgress(sql, provider.id, 0, uids.length)
  if (uids.length === 0) return { added: 0, fetched: 0 }
  const box = receivedMailBox(deps.config)
  let done = 0
  let added = 0
  let storing: Promise<void> = Promise.resolve()
  try {
    for await (const { batch, messages } of readAhead(batchesBySize(client, uids), (batch) => fetchBatch(client, batch))) {
      const prepared: PreparedMessage[] = []
      for (const message of messages) {
        prepared.push(prepareMessage(box, provider, folder, message.meta, await parseMessage(message.content)))
        // A parse from memory settles in microtasks only: without a turn of the event loop between
        // messages, the store in flight would get each of its replies only once the whole batch is
        // parsed, and the sync would wait for it after each batch.
        await setImmediate()
      }
      await storing
      const progress = { done: done + batch.uids.length, total: uids.length }
      storing = storeBatch(sql, provider, folder, prepared, batch.uids[batch.uids.length - 1], progress).then((stored) => {
        added += stored
        done = progress.done
      })
      storing.catch(() => {}) // awaited before the next batch is handed over, or below
    }
  } catch (error) {
    await storing.catch(() => {})
    throw error
  }
  await storing
  return { added, fetched: done }
}

type MessageMeta = Pick<FetchMessageObject, 'uid' | 'flags' | 'modseq' | 'size' | 'internalDate'>

/** A fetched message: its flags and dates, and its source (a stream for one over STREAM_BYTES). */
interface FetchedMessage { meta: MessageMeta; content: Buffer | Readable }

/** One batch from the server: a FETCH of its messages read whole, or its one large message as a stream. */
async function fetchBatch(client: ImapFlow, batch: FetchBatch): Promise<{ batch: FetchBatch; messages: FetchedMessage[] }> {
  const messages: FetchedMessage[] = []
  if (batch.streamed) {
    const message = await fetchLarge(client, batch.uids[0])
    if (message) messages.push(message)
  } else {
    for await (const message of client.fetch(batch.uids.join(','), { uid: true, flags: true, size: true, internalDate: true, source: true }, { uid: true })) {
      messages.push({ meta: message, content: message.source ?? Buffer.alloc(0) })
    }
  }
  return { batch, messages }
}

interface PreparedMessage { email: Omit<NewReceivedEmail, 'threadId'>; thread: ThreadInput; attachments: NewAttachment[] }

/** A parsed message as its rows: bodies, preview and attachments sealed, bound to the row ids. */
function prepareMessage(box: SecretBox, provider: ProviderForSync, folder: MailboxFolderRow, message: MessageMeta, parsed: ParsedMessage): PreparedMessage {
  const id = randomUUID()
  const flags = serverFlags(message.uid, message.flags, message.modseq)
  const internalDate = message.internalDate instanceof Date ? message.internalDate : message.internalDate ? new Date(message.internalDate) : null
  const subjectKey = threadSubject(parsed.subject)
  // bodies are text: compressed before sealing, they cost Postgres (and the wire, and the disk) a
  // third or less. On this thread: compressing on libuv's pool overlapped the next parse but cost
  // more CPU in all (bench, back to back: 1.55-1.67 against 1.32-1.38 ms per message), and a sync
  // on two cores is bound by CPU in all
  const bodyText = parsed.text === null ? null : box.seal(parsed.text, `${id}:text`, { compress: true })
  const bodyHtml = parsed.html === null ? null : box.seal(parsed.html, `${id}:html`, { compress: true })
  return {
    email: {
      id, userId: provider.userId, providerId: provider.id, folderId: folder.id, uid: message.uid,
      messageId: parsed.messageId, inReplyTo: parsed.inReplyTo, referenceIds: parsed.referenceIds, threadSubject: subjectKey,
      subject: parsed.subject, fromAddress: parsed.fromAddress, fromName: parsed.fromName, toAddress: parsed.toAddress,
      ccAddresses: parsed.ccAddresses, bccAddresses: parsed.bccAddresses,
      receivedAt: parsed.date ?? internalDate ?? new Date(), size: message.size ?? 0,
      isRead: flags.isRead, isStarred: flags.isStarred, isAnswered: flags.isAnswered,
      hasAttachments: parsed.attachments.some((a) => a.listed), modseq: flags.modseq,
      preview: box.seal(parsed.preview, `${id}:preview`),
      bodyText, bodyHtml,
    },
    thread: { messageId: parsed.messageId, named: [...(parsed.inReplyTo ? [parsed.inReplyTo] : []), ...parsed.referenceIds], subjectKey },
    attachments: parsed.attachments.map((a) => {
      const attachmentId = randomUUID()
      return {
        id: attachmentId, emailId: id, userId: provider.userId, filename: a.filename, contentType: a.contentType, contentId: a.contentId,
        size: a.content.length, content: box.seal(a.content, attachmentId),
      }
    }),
  }
}

/**
 * One batch in one transaction: its conversations, its messages and their attachments (a statement
 * each), the folder's cursor and the account's progress. Committed without waiting for its WAL to
 * reach the disk (synchronous_commit off, for this transaction only): what it holds is a copy of
 * mail the IMAP server keeps, and the cursor moves in the same transaction, so a Postgres crash can
 * only lose the last batches together with their cursor, and the next sync fetches them again.
 * (npm run bench -- sync: the sync's wait for the store before it hands over the next batch fell
 * from 2.8 to 2.3 s of 8 s.)
 */
async function storeBatch(sql: Sql, provider: ProviderForSync, folder: MailboxFolderRow, batch: PreparedMessage[], lastUid: number, progress: { done: number; total: number }): Promise<number> {
  return sql.begin(async (tx) => {
    const [, threads] = await Promise.all([tx`set local synchronous_commit = off`, assignThreads(tx, provider.userId, batch.map((m) => m.thread))])
    const stored = await insertReceivedEmails(tx, batch.map((m, i) => ({ ...m.email, threadId: threads[i] })))
    // the attachments are a COPY: nothing may be sent on the connection beside it
    await insertAttachments(tx, batch.filter((m) => stored.has(m.email.id)).flatMap((m) => m.attachments))
    await Promise.all([advanceFolderUid(tx, folder.id, lastUid), setProviderProgress(tx, provider.id, progress.done, progress.total)])
    return stored.size
  })
}

/** A message over STREAM_BYTES: its flags and dates, and its source as a stream read in chunks. */
async function fetchLarge(client: ImapFlow, uid: number): Promise<{ meta: MessageMeta; content: Readable } | undefined> {
  const meta = await client.fetchOne(String(uid), { uid: true, flags: true, size: true, internalDate: true }, { uid: true })
  if (!meta) return undefined // expunged meanwhile
  const download = await client.download(String(uid), undefined, { uid: true, chunkSize: 1024 * 1024 })
  if (!download || !('content' in download) || !download.content) return undefined
  return { meta, content: download.content }
}

interface FetchBatch { uids: number[]; streamed: boolean }

/**
 * Splits UIDs into fetch batches of at most BATCH_MESSAGES and about BATCH_BYTES (RFC822.SIZE);
 * a message over STREAM_BYTES is a batch of its own, streamed. The sizes are fetched SIZE_CHUNK
 * UIDs at a time as the batches are needed (within readAhead's fetch, so overlapping the parse
 * and the store), not all before the first batch.
 */
async function* batchesBySize(client: ImapFlow, uids: number[]): AsyncGenerator<FetchBatch> {
  let current: number[] = []
  let bytes = 0
  for (let i = 0; i < uids.length; i += SIZE_CHUNK) {
    const chunk = uids.slice(i, i + SIZE_CHUNK)
    const sizes = new Map<number, number>()
    for await (const m of client.fetch(chunk.join(','), { uid: true, size: true }, { uid: true })) sizes.set(m.uid, m.size ?? 0)
    for (const uid of chunk) {
      const size = sizes.get(uid)
      if (size === undefined) continue // expunged meanwhile
      if (current.length && (current.length >= BATCH_MESSAGES || bytes + size > BATCH_BYTES || size > STREAM_BYTES)) {
        yield { uids: current, streamed: false }
        current = []
        bytes = 0
      }
      if (size > STREAM_BYTES) {
        yield { uids: [uid], streamed: true }
        continue
      }
      current.push(uid)
      bytes += size
    }
  }
  if (current.length) yield { uids: current, streamed: false }
}
