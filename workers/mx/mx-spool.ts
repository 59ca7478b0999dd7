// DATA → a Postgres transaction: the sealed message, one delivery row per (message, target)
// and one job per delivery, and the dropped counters of paused aliases. The message is sealed in
// chunks as it streams in (spool-codec.ts): a small one is written with the other messages of the
// moment in one transaction (group commit); a large one opens a transaction of its own at its
// first full chunk and writes each chunk as it fills, so the MX holds one chunk of it, never the
// whole. The MX answers 250 only after its message's transaction commits (docs/mail-flow.md); any
// failure, a refusal or a client gone mid-DATA rolls back and leaves nothing of it behind (the
// client is told 451 when it is still there).
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { incrementAliasCounter } from '../../db/alias-counters.ts'
import { insertDeliveries, insertSpoolChunk, insertSpoolChunks, insertSpoolMessages, type DeliveryKind, type NewDelivery, type NewSpoolChunk, type NewSpoolMessage } from '../../db/spool.ts'
import { partitionTargets } from '../../shared/alias-target-rules.ts'
import { coalesce } from '../../lib/coalesce.ts'
import type { Recipient } from '../mail/mx-recipients.ts'
import { replies } from '../mail/smtp-reply.ts'
import { enqueueMany, queues } from '../../db/queues.ts'
import { SPOOL_CHUNK_BYTES, type SpoolCodec, type StoredMeta } from '../mail/spool-codec.ts'

export interface SpoolDeps {
  sql: Sql
  boss: PgBoss
  codec: SpoolCodec
}

interface PlannedDelivery {
  aliasId: string | null
  kind: DeliveryKind
  target: string | null
  reverseAliasId?: string
}

const queueFor = { email: queues.forwardEmail, webhook: queues.forwardWebhook, reply: queues.forwardReply, operator: queues.forwardOperator } as const

export function planDeliveries(recipients: Recipient[]): { deliveries: PlannedDelivery[]; droppedAliasIds: string[]; spamAliasIds: string[] } {
  const deliveries: PlannedDelivery[] = []
  const seen = new Set<string>()
  const dropped = new Set<string>()
  const spam = new Set<string>()
  for (const r of recipients) {
    if (r.kind === 'paused') dropped.add(r.alias.id)
    if (r.kind === 'spam') spam.add(r.alias.id)
    if (r.kind === 'alias' && !seen.has(r.alias.id)) {
      seen.add(r.alias.id)
      const { emails, webhooks } = partitionTargets(r.alias.forwardTo)
      for (const email of emails) deliveries.push({ aliasId: r.alias.id, kind: 'email', target: email })
      for (const url of webhooks) deliveries.push({ aliasId: r.alias.id, kind: 'webhook', target: url })
    }
    if (r.kind === 'operator' && !seen.has(r.role)) {
      seen.add(r.role)
      deliveries.push({ aliasId: null, kind: 'operator', target: r.role })
    }
    if (r.kind === 'reverse' && !seen.has(r.reverse.id)) {
      seen.add(r.reverse.id)
      deliveries.push({ aliasId: r.alias.id, kind: 'reply', target: null, reverseAliasId: r.reverse.id })
    }
  }
  return { deliveries, droppedAliasIds: [...dropped], spamAliasIds: [...spam] }
}

/** Messages larger than this are not grouped with others: they stream into a transaction of their own. */
export const GROUP_COMMIT_MAX_BYTES = 256 * 1024

/**
 * Large messages streaming into transactions at once, each holding a database connection while
 * its client sends; the next waits for a free one (and its client with it), so big mail can not
 * take every connection from the small mail and the RCPT lookups.
 */
export const MAX_STREAMING_WRITES = 8

/**
 * How long a large message waits for one of those places while its client is held. Past it the
 * message is refused with 451 (its client retries later, RFC 5321 §4.5.4.1) instead of the client
 * waiting on a silent socket until one side times out.
 */
export const STREAMING_WAIT_MS = 30_000

/** What one accepted message writes, sealed and planned before any database work. */
interface SpoolWrite {
  message?: NewSpoolMessage
  chunks: NewSpoolChunk[]
  deliveries: NewDelivery[]
  droppedAliasIds: string[]
  /** aliases that drop spam, for a message rspamd called spam */
  spamAliasIds?: string[]
}

type Connection = Awaited<ReturnType<Sql['reserve']>>

/**
 * A batch's statements inside an open transaction: they go out as one pipeline (ids are made
 * here, so nothing waits for a reply), and the first failure is thrown once all have settled.
 */
async function writeRows(deps: SpoolDeps, tx: Connection, writes: SpoolWrite[]): Promise<void> {
  const statements: Promise<unknown>[] = []
  statements.push(insertSpoolChunks(tx, writes.flatMap((w) => w.chunks)))
  statements.push(insertSpoolMessages(tx, writes.flatMap((w) => (w.message ? [w.message] : []))))
  const deliveries = writes.flatMap((w) => w.deliveries)
  statements.push(insertDeliveries(tx, deliveries))
  // one insert per queue for the whole batch
  for (const kind of new Set(deliveries.map((d) => d.kind))) {
    statements.push(enqueueMany(tx, deps.boss, queueFor[kind], deliveries.filter((d) => d.kind === kind).map((d) => ({ deliveryId: d.id }))))
  }
  // in one order everywhere, so two MX processes' batches can not deadlock on the counters
  for (const aliasId of writes.flatMap((w) => w.droppedAliasIds).sort()) statements.push(incrementAliasCounter(tx, aliasId, 'dropped'))
  for (const aliasId of writes.flatMap((w) => w.spamAliasIds ?? []).sort()) statements.push(incrementAliasCounter(tx, aliasId, 'spam'))
  const settled = await Promise.allSettled(statements)
  const failed = settled.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
}

/** Writes a batch in one transaction on a reserved connection; any failure rolls the whole batch back. */
async function writeBatch(deps: SpoolDeps, writes: SpoolWrite[]): Promise<void> {
  const tx = await deps.sql.reserve()
  try {
    // postgres.js runs a query when it is first awaited: BEGIN must be sent before anything else.
    const begin = tx`begin`.execute()
    await Promise.all([begin, writeRows(deps, tx, writes)])
    await tx`commit`
  } catch (error) {
    await tx`rollback`.catch(() => {})
    throw error
  } finally {
    tx.release()
  }
}

/** A count of free places; `take` waits for one up to `waitMs`, then throws 451. */
function slots(count: number, waitMs: number) {
  let free = count
  const waiting: (() => void)[] = []
  return {
    async take(): Promise<() => void> {
      if (free > 0) free--
      else {
        let timer: NodeJS.Timeout | undefined
        let turn: (() => void) | undefined
        const given = new Promise<boolean>((resolve) => {
          turn = () => resolve(true)
          waiting.push(turn)
          timer = setTimeout(() => resolve(false), waitMs)
        })
        const inTime = await given
        clearTimeout(timer)
        // a place handed over just as the time ran out is taken, not lost
        const queued = waiting.indexOf(turn!)
        if (!inTime && queued !== -1) {
          waiting.splice(queued, 1)
          throw replies.busy()
        }
      }
      let released = false
      return () => {
        if (released) return
        released = true
        const next = waiting.shift()
        if (next) next()
        else free++
      }
    },
  }
}

/** One message being received: its bytes go in as they arrive, then it is committed or dropped. */
export interface MessageWriter {
  /** the next bytes of the message; resolves when more may be written */
  write(data: Buffer): Promise<void>
  /** the message is complete: stores it for these recipients; resolves once it is durable, with its spool id */
  commit(recipients: Recipient[], meta: StoredMeta): Promise<string | undefined>
  /** nothing of the message is kept (idempotent; a no-op after commit) */
  abort(): Promise<void>
}

/**
 * Group commit (lib/coalesce.ts): the small messages of concurrent DATA commands that arrive
 * while a batch is being committed are written together in the next transaction, so one commit
 * (and one WAL flush) serves many clients, and each still hears 250 only after its own commit.
 * When a batch fails, each of its messages is tried again alone, so one bad message does not
 * cost the others their acceptance; a message that fails alone too gets the error (451 at the
 * MX). A large message streams into its own transaction (`writer`): its transfer outweighs a
 * commit, and it is never held whole.
 */
export function createSpooler(deps: SpoolDeps, options: { maxBatch?: number; maxStreams?: number; streamWaitMs?: number } = {}) {
  const commit = coalesce(async (writes: SpoolWrite[]): Promise<(Error | undefined)[]> => {
    try {
      await writeBatch(deps, writes)
      return writes.map(() => undefined)
    } catch (error) {
      if (writes.length === 1) return [error as Error]
      return Promise.all(writes.map((w) => writeBatch(deps, [w]).then(() => undefined, (e: Error) => e)))
    }
  }, options.maxBatch ?? 64)
  const streams = slots(options.maxStreams ?? MAX_STREAMING_WRITES, options.streamWaitMs ?? STREAMING_WAIT_MS)

  async function store(write: SpoolWrite): Promise<void> {
    const error = await commit(write)
    if (error) throw error
  }

  function writer(): MessageWriter {
    const id = randomUUID()
    let pending: Buffer[] = []
    let pendingBytes = 0
    let size = 0
    let seq = 0
    let stream: { tx: Connection; release: () => void } | undefined
    let ended = false

    /** The first `bytes` of what is pending, as one buffer. */
    const take = (bytes: number): Buffer => {
      const all = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes)
      pending = bytes < all.length ? [all.subarray(bytes)] : []
      pendingBytes -= bytes
      return all.subarray(0, bytes)
    }
    const open = async () => {
      const release = await streams.take()
      try {
        const tx = await deps.sql.reserve()
        stream = { tx, release: () => { tx.release(); release() } }
        await tx`begin`
      } catch (error) {
        if (stream) stream.release()
        else release()
        stream = undefined
        throw error
      }
      return stream
    }
    const end = async (outcome: 'commit' | 'rollback') => {
      ended = true
      pending = []
      const s = stream
      stream = undefined
      if (!s) return
      try {
        if (outcome === 'commit') await s.tx`commit`
        else await s.tx`rollback`
      } catch (error) {
        if (outcome === 'commit') await s.tx`rollback`.catch(() => {})
        throw error
      } finally {
        s.release()
      }
    }

    return {
      async write(data) {
        if (ended) throw new Error('message already ended')
        pending.push(data)
        pendingBytes += data.length
        size += data.length
        // small so far: held, to be committed with others
        if (!stream && size <= GROUP_COMMIT_MAX_BYTES) return
        // a full chunk is written once more follows: the last one is sealed as the last
        while (pendingBytes > SPOOL_CHUNK_BYTES) {
          const chunk = take(SPOOL_CHUNK_BYTES)
          const { tx } = stream ?? (await open())
          await insertSpoolChunk(tx, { spoolId: id, seq, sealed: deps.codec.sealChunk(id, seq, false, chunk) })
          seq++
        }
      },

      async commit(recipients, meta) {
        if (ended) throw new Error('message already ended')
        const { deliveries, droppedAliasIds, spamAliasIds } = planDeliveries(recipients)
        if (deliveries.length === 0) {
          await end('rollback')
          if (droppedAliasIds.length || spamAliasIds.length) await store({ chunks: [], deliveries: [], droppedAliasIds, spamAliasIds })
          return undefined
        }
        const chunks: NewSpoolChunk[] = []
        for (; pendingBytes > SPOOL_CHUNK_BYTES; seq++) chunks.push({ spoolId: id, seq, sealed: deps.codec.sealChunk(id, seq, false, take(SPOOL_CHUNK_BYTES)) })
        chunks.push({ spoolId: id, seq, sealed: deps.codec.sealChunk(id, seq, true, take(pendingBytes)) })
        const write: SpoolWrite = {
          message: { id, meta: deps.codec.sealMeta(id, meta), size, chunks: seq + 1 },
          chunks,
          deliveries: deliveries.map((d) => ({ id: randomUUID(), spoolId: id, ...d })),
          droppedAliasIds,
          spamAliasIds,
        }
        if (!stream) {
          ended = true
          await store(write)
          return id
        }
        try {
          await writeRows(deps, stream.tx, [write])
        } catch (error) {
          await end('rollback')
          throw error
        }
        await end('commit')
        return id
      },

      async abort() {
        if (!ended) await end('rollback').catch(() => {})
      },
    }
  }

  /** Stores and enqueues a message held whole; returns the spool id, or undefined when nothing needed storing. */
  async function spoolMessage(recipients: Recipient[], message?: { raw: Buffer; meta: StoredMeta }): Promise<string | undefined> {
    const { deliveries, droppedAliasIds, spamAliasIds } = planDeliveries(recipients)
    if (deliveries.length === 0 && droppedAliasIds.length === 0 && spamAliasIds.length === 0) return undefined
    if (deliveries.length && !message) throw new Error('deliveries without a message')
    if (!message || !deliveries.length) {
      await store({ chunks: [], deliveries: [], droppedAliasIds, spamAliasIds })
      return undefined
    }
    const w = writer()
    try {
      for (let at = 0; at < message.raw.length; at += SPOOL_CHUNK_BYTES) await w.write(message.raw.subarray(at, at + SPOOL_CHUNK_BYTES))
      return await w.commit(recipients, message.meta)
    } finally {
      await w.abort()
    }
  }

  return Object.assign(spoolMessage, { writer })
}

export type Spooler = ReturnType<typeof createSpooler>
