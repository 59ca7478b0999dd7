// New mail of one folder: fetched above the highest stored UID in batches bounded by count and
// bytes, each committed with the folder cursor, so a killed sync resumes where it stopped and memory
// stays bounded whatever the mailbox size.
//
// The server is not trusted for any of it. A batch is fetched under a byte budget made from the
// sizes the server announced (RFC822.SIZE): a server that sends more has its connection closed,
// and the batch's messages are fetched again one at a time on a new connection, each under the
// service's message limit; a message over it, or one that cannot be read or saved, is stored as a
// placeholder (unstored-message.ts). A folder is synced up to its newest MAX_FOLDER_MESSAGES.
import { randomUUID } from 'node:crypto'
import { Transform, type Readable } from 'node:stream'
import { setImmediate } from 'node:timers/promises'
import type { FetchMessageObject, ImapFlow } from 'imapflow'
import type { Db, Sql } from '../../db/client.ts'
import { setProviderProgress, type ProviderForSync } from '../../db/email-providers.ts'
import { advanceFolderUid, type MailboxFolderRow } from '../../db/mailbox-folders.ts'
import { insertAttachments, type NewAttachment } from '../../db/received-attachments.ts'
import { insertReceivedEmails, type NewReceivedEmail } from '../../db/received-emails.ts'
import { log } from '../../lib/log.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import { BUDGETS, ImapLimitError, type ImapGuard } from '../../lib/imap-limits.ts'
import { assignThreads, type ThreadInput } from './mail-threads.ts'
import { readAhead } from './read-ahead.ts'
import { parseMessage, threadSubject, type ParsedMessage } from './received-mail.ts'
import { imapUid, serverFlags, storableInteger } from './server-values.ts'
import { unstoredMessage, type UnstoredReason } from './unstored-message.ts'

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
/** The newest messages of a folder that are synced; older ones stay on the server only. */
export const MAX_FOLDER_MESSAGES = 100_000

export interface FolderFetch {
  sql: Sql
  client: ImapFlow
  guard: ImapGuard
  box: SecretBox
  provider: ProviderForSync
  folder: MailboxFolderRow
  maxMessageBytes: number
  commandTimeoutMs: number
  /** UIDs of this folder to fetch one at a time: a batch of them came with more than announced */
  singly: Set<number>
  /** after this (ms since the epoch) no new batch is started: the sync yields its slot */
  sliceEnd: number
}

export interface FetchCounts { added: number; fetched: number; /** stopped at the end of the slice with mail left */ more: boolean }

/** The connection is gone (closed by a limit); these UIDs are to be fetched one at a time on a new one. */
export class RefetchSinglyError extends Error {
  override name = 'RefetchSinglyError'
  readonly uids: number[]
  /** the folder of the UIDs (set by the folder's sync) */
  folderId = ''
  constructor(uids: number[]) {
    super('refetch one at a time')
    this.uids = uids
  }
}

/**
 * New mail above `lastUid`. Three stages overlap: while one batch is parsed, the next is fetched
 * (readAhead: one fetch in flight, never more) and the one before is written to Postgres. A
 * failure waits for the store in flight, so the cursor is the last stored UID when it is thrown.
 */
export async function fetchNewMessages(f: FolderFetch, lastUid: number, exists: number): Promise<FetchCounts> {
  const { sql, client, guard, provider, folder } = f
  if (exists === 0) return { added: 0, fetched: 0, more: false }
  const search = { ...BUDGETS.search, ms: f.commandTimeoutMs }
  const found = (await guard.run('search', search, () => client.search({ uid: `${lastUid + 1}:*` }, { uid: true }))) || []
  // "n:*" always matches the highest UID, even when it is below n (RFC 3501 §6.4.8); a UID is a
  // 32-bit number (RFC 3501 §2.3.1.1), anything else is the server's mistake
  const uids = [...new Set(found.filter((u) => imapUid(u) && u > lastUid))].sort((a, b) => a - b).slice(-MAX_FOLDER_MESSAGES)
  await setProviderProgress(sql, provider.id, 0, uids.length)
  if (uids.length === 0) return { added: 0, fetched: 0, more: false }
  let done = 0
  let added = 0
  let more = false
  let reconnect = false
  let storing: Promise<void> = Promise.resolve()
  try {
    for await (const { batch, messages } of readAhead(batchesBySize(f, uids), (batch) => fetchBatch(f, batch))) {
      const prepared: PreparedMessage[] = []
      for (const message of messages) {
        prepared.push(prepareMessage(f, message.meta, message.parsed ?? await parseOrPlaceholder(f, message), message.size))
        reconnect ||= message.reconnect === true
        // A parse from memory settles in microtasks only: without a turn of the event loop between
        // messages, the store in flight would get each of its replies only once the whole batch is
        // parsed, and the sync would wait for it after each batch.
        await setImmediate()
      }
      await storing
      const progress = { done: done + batch.uids.length, total: uids.length }
      storing = storeBatch(f, prepared, batch.uids[batch.uids.length - 1], progress).then((stored) => {
        added += stored
        done = progress.done
      })
      storing.catch(() => {}) // awaited before the next batch is handed over, or below
      if (reconnect) break
      if (Date.now() >= f.sliceEnd && progress.done < uids.length) {
        more = true
        break
      }
    }
  } catch (error) {
    await storing.catch(() => {})
    throw error
  }
  await storing
  // a message's stream was cut by a limit: its placeholder is stored, the rest goes on from a new connection
  if (reconnect) throw new RefetchSinglyError([])
  return { added, fetched: done, more }
}

type MessageMeta = Pick<FetchMessageObject, 'uid' | 'flags' | 'modseq' | 'internalDate'>

/** A fetched message: its flags and dates, and its source or (fetched alone) what it was read as. */
interface FetchedMessage {
  meta: MessageMeta
  size: number
  content?: Buffer
  parsed?: ParsedMessage
  /** the connection was closed by a limit while this message came */
  reconnect?: boolean
}

/** One batch from the server: a FETCH of its messages read whole, or one message alone (streamed). */
async function fetchBatch(f: FolderFetch, batch: FetchBatch): Promise<{ batch: FetchBatch; messages: FetchedMessage[] }> {
  if (batch.single) {
    const message = await fetchAlone(f, batch.uids[0], batch.bytes)
    return { batch, messages: message ? [message] : [] }
  }
  const wanted = new Set(batch.uids)
  const messages: FetchedMessage[] = []
  // what the sizes announced, a quarter more for servers that count a little differently, and the
  // FETCH framing of each message; a server over it lied about its sizes
  const budget = { bytes: Math.ceil(batch.bytes * 1.25) + 64 * 1024 + 1024 * batch.uids.length, ms: f.commandTimeoutMs }
  const fetch = (uids: Iterable<number>, flags: boolean) => f.guard.run('fetch', budget, async () => {
    for await (const message of f.client.fetch([...uids].join(','), { uid: true, flags, internalDate: true, source: true }, { uid: true })) {
      // only what was asked for, once each: a server can answer with any UID
      if (!wanted.delete(message.uid)) continue
      const content = message.source ?? Buffer.alloc(0)
      messages.push({ meta: message, size: content.length, content })
    }
  })
  try {
    await fetch(batch.uids, true)
    // imapflow drops a whole FETCH row whose flags it cannot read (a keyword with a NUL, a CR, a
    // bracket): asked again without flags, the message comes as unread; what still does not come
    // was expunged meanwhile
    if (wanted.size) await fetch(new Set(wanted), false)
  } catch (error) {
    if (error instanceof ImapLimitError && error.limit === 'too-large') throw new RefetchSinglyError(batch.uids)
    throw error
  }
  return { batch, messages }
}

/** A buffered message read, or its placeholder when it cannot be. */
async function parseOrPlaceholder(f: FolderFetch, message: FetchedMessage): Promise<ParsedMessage> {
  try {
    return await parseMessage(message.content ?? Buffer.alloc(0))
  } catch (error) {
    log.warn('sync.message_unreadable', { folder: f.folder.id, uid: message.meta.uid, cause: (error as Error)?.name })
    return placeholder(f, 'unreadable', message.meta.uid)
  }
}

const placeholder = (f: FolderFetch, reason: UnstoredReason, uid: number) =>
  unstoredMessage(reason, { folder: f.folder.path, uid }, f.maxMessageBytes)

/**
 * A message fetched alone: its flags and dates, then its source streamed in chunks (never held whole)
 * into the parser, counted as it comes. Over the service's limit, announced or sent, it becomes a
 * placeholder; a connection closed by a limit on the way is reported for a reconnect.
 */
async function fetchAlone(f: FolderFetch, uid: number, announced: number): Promise<FetchedMessage | undefined> {
  const { client, guard } = f
  const metaBudget = { ...BUDGETS.flags, ms: f.commandTimeoutMs }
  const fetchMeta = (flags: boolean) => guard.run('fetch-meta', metaBudget, () => client.fetchOne(String(uid), { uid: true, flags, internalDate: true }, { uid: true }))
  // without flags when they are unreadable (see fetchBatch)
  const meta = (await fetchMeta(true)) || (await fetchMeta(false))
  if (!meta || meta.uid !== uid) return undefined // expunged meanwhile
  const tooLarge = (reconnect: boolean): FetchedMessage => ({ meta, size: 0, parsed: placeholder(f, 'too-large', uid), reconnect })
  if (announced > f.maxMessageBytes) return tooLarge(false)
  const counter = new ByteCounter(f.maxMessageBytes)
  const budget = { bytes: f.maxMessageBytes + 1024 * 1024, ms: f.commandTimeoutMs * 4 }
  try {
    const parsed = await guard.run('fetch-large', budget, async () => {
      const download = await client.download(String(uid), undefined, { uid: true, chunkSize: 1024 * 1024 })
      if (!download || !('content' in download) || !download.content) return undefined
      const source = download.content as Readable
      source.on('error', (error) => counter.destroy(error))
      return parseMessage(source.pipe(counter))
    })
    if (!parsed) return undefined
    return { meta, size: counter.bytes, parsed }
  } catch (error) {
    // more than MAX_MESSAGE_BYTES came, or more than twice what the server announced (imapflow's DownloadOverflow)
    if (counter.overflowed || counter.sourceError?.code === 'DownloadOverflow') return tooLarge(false)
    const code = (error as { code?: string }).code
    // imapflow refuses a literal over its limit (parserLimits) and closes the connection itself
    if ((error instanceof ImapLimitError && error.limit === 'too-large') || code === 'LiteralTooLarge' || code === 'ResponseTooLarge') return tooLarge(true)
    if (guard.error || counter.sourceError) throw guard.error ?? error // the connection failed: the sync is retried
    log.warn('sync.message_unreadable', { folder: f.folder.id, uid, cause: (error as Error)?.name })
    return { meta, size: counter.bytes, parsed: placeholder(f, 'unreadable', uid) }
  }
}

/** Passes a stream on, counting its bytes, and fails it once they pass `max`. */
class ByteCounter extends Transform {
  bytes = 0
  overflowed = false
  /** what failed the stream from the server, when it failed */
  sourceError: { code?: string } | undefined
  private readonly max: number
  constructor(max: number) {
    super()
    this.max = max
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.bytes += chunk.length
    if (this.bytes > this.max) {
      this.overflowed = true
      done(new ImapLimitError('too-large', 'message'))
      return
    }
    done(null, chunk)
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (error && !this.overflowed) this.sourceError = error as { code?: string }
    done(error)
  }
}

interface PreparedMessage { email: Omit<NewReceivedEmail, 'threadId'>; thread: ThreadInput; attachments: NewAttachment[]; meta: MessageMeta }

/** A parsed message as its rows: bodies, preview and attachments sealed, bound to the row ids. */
function prepareMessage(f: Pick<FolderFetch, 'box' | 'provider' | 'folder'>, meta: MessageMeta, parsed: ParsedMessage, size: number): PreparedMessage {
  const { box, provider, folder } = f
  const id = randomUUID()
  const flags = serverFlags(meta.uid, meta.flags, meta.modseq)
  const internalDate = meta.internalDate instanceof Date ? meta.internalDate : meta.internalDate ? new Date(meta.internalDate) : null
  const serverDate = internalDate && !Number.isNaN(internalDate.getTime()) && internalDate.getUTCFullYear() <= 9999 ? internalDate : null
  const subjectKey = threadSubject(parsed.subject)
  // bodies are text: compressed before sealing, they cost Postgres (and the wire, and the disk) a
  // third or less. On this thread: compressing on libuv's pool overlapped the next parse but cost
  // more CPU in all (bench, back to back: 1.55-1.67 against 1.32-1.38 ms per message), and a sync
  // on two cores is bound by CPU in all
  const bodyText = parsed.text === null ? null : box.seal(parsed.text, `${id}:text`, { compress: true })
  const bodyHtml = parsed.html === null ? null : box.seal(parsed.html, `${id}:html`, { compress: true })
  return {
    meta,
    email: {
      id, userId: provider.userId, providerId: provider.id, folderId: folder.id, uid: meta.uid,
      messageId: parsed.messageId, inReplyTo: parsed.inReplyTo, referenceIds: parsed.referenceIds, threadSubject: subjectKey,
      subject: parsed.subject, fromAddress: parsed.fromAddress, fromName: parsed.fromName, toAddress: parsed.toAddress,
      ccAddresses: parsed.ccAddresses, bccAddresses: parsed.bccAddresses, replyTo: parsed.replyTo ?? '',
      receivedAt: parsed.date ?? serverDate ?? new Date(), size: storableInteger(size),
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
 * from 2.8 to 2.3 s of 8 s.) A batch Postgres refuses for its data is stored message by message,
 * and a message it still refuses as its placeholder: one message never holds back the others.
 */
async function storeBatch(f: FolderFetch, batch: PreparedMessage[], lastUid: number, progress: { done: number; total: number }): Promise<number> {
  const { sql, provider, folder } = f
  try {
    return await sql.begin(async (tx) => {
      const [, threads] = await Promise.all([tx`set local synchronous_commit = off`, assignThreads(tx, provider.userId, batch.map((m) => m.thread))])
      const stored = await insertReceivedEmails(tx, batch.map((m, i) => ({ ...m.email, threadId: threads[i] })))
      // the attachments are a COPY: nothing may be sent on the connection beside it
      await insertAttachments(tx, batch.filter((m) => stored.has(m.email.id)).flatMap((m) => m.attachments))
      await Promise.all([advanceFolderUid(tx, folder.id, lastUid), setProviderProgress(tx, provider.id, progress.done, progress.total)])
      return stored.size
    })
  } catch (error) {
    if (!refusedForItsData(error)) throw error
    log.warn('sync.batch_refused', { folder: folder.id, code: (error as { code?: string }).code, messages: batch.length })
  }
  return sql.begin(async (tx) => {
    let stored = 0
    for (const message of batch) {
      try {
        stored += await tx.savepoint((sp) => storeOne(sp, provider.userId, message))
      } catch (error) {
        if (!refusedForItsData(error)) throw error
        log.warn('sync.message_refused', { folder: folder.id, uid: message.email.uid, code: (error as { code?: string }).code })
        const unstored = prepareMessage(f, message.meta, placeholder(f, 'refused', message.email.uid), message.email.size)
        stored += await tx.savepoint((sp) => storeOne(sp, provider.userId, unstored))
      }
    }
    await Promise.all([advanceFolderUid(tx, folder.id, lastUid), setProviderProgress(tx, provider.id, progress.done, progress.total)])
    return stored
  })
}

async function storeOne(db: Db, userId: string, message: PreparedMessage): Promise<number> {
  const [thread] = await assignThreads(db, userId, [message.thread])
  const stored = await insertReceivedEmails(db, [{ ...message.email, threadId: thread }])
  if (stored.size) await insertAttachments(db, message.attachments)
  return stored.size
}

/**
 * Postgres refused what a message holds, not the statement: a data exception (class 22: a value out
 * of range, a character it cannot hold), an integrity violation (23) or a program limit (54: an
 * index row too large). Anything else (a lost connection, a deadlock) is retried as the sync.
 */
function refusedForItsData(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' && /^(22|23|54)/.test(code)
}

interface FetchBatch { uids: number[]; /** fetched alone, streamed */ single: boolean; /** announced bytes */ bytes: number }

/**
 * Splits UIDs into fetch batches of at most BATCH_MESSAGES and about BATCH_BYTES (RFC822.SIZE);
 * a message over STREAM_BYTES, or one to fetch singly, is a batch of its own, streamed. The sizes
 * are fetched SIZE_CHUNK UIDs at a time as the batches are needed (within readAhead's fetch, so
 * overlapping the parse and the store), not all before the first batch.
 */
async function* batchesBySize(f: FolderFetch, uids: number[]): AsyncGenerator<FetchBatch> {
  let current: number[] = []
  let bytes = 0
  const budget = { ...BUDGETS.flags, ms: f.commandTimeoutMs }
  for (let i = 0; i < uids.length; i += SIZE_CHUNK) {
    const chunk = uids.slice(i, i + SIZE_CHUNK)
    const sizes = new Map<number, number>()
    await f.guard.run('fetch-sizes', budget, async () => {
      for await (const m of f.client.fetch(chunk.join(','), { uid: true, size: true }, { uid: true })) sizes.set(m.uid, storableInteger(m.size ?? 0))
    })
    for (const uid of chunk) {
      const size = sizes.get(uid)
      if (size === undefined) continue // expunged meanwhile
      const alone = size > STREAM_BYTES || f.singly.has(uid)
      if (current.length && (current.length >= BATCH_MESSAGES || bytes + size > BATCH_BYTES || alone)) {
        yield { uids: current, single: false, bytes }
        current = []
        bytes = 0
      }
      if (alone) {
        yield { uids: [uid], single: true, bytes: size }
        continue
      }
      current.push(uid)
      bytes += size
    }
  }
  if (current.length) yield { uids: current, single: false, bytes }
}
