// What one IMAP server may cost the sync process. imapflow's own bounds (a literal of 1 GiB, a
// response of 2 GiB, a line of 1 GiB) let one server fill the process; a socket timeout fires only
// on silence, so a server that never stops talking holds its sync slot for ever. Here every command
// the sync sends gets a byte budget and a deadline of its own, and the whole sync a deadline: a
// server over either has its connection closed at once (what it sent beyond is never buffered), and
// the command fails with an ImapLimitError naming the limit. The sync process aborts every guarded
// connection when it stops, so SIGTERM never waits for a hostile server.
import type { ImapFlow } from 'imapflow'

/** `too-large`: more bytes than the command can need; `deadline`: too slow; `stopped`: the process is stopping. */
export type ImapLimit = 'too-large' | 'deadline' | 'stopped'

export class ImapLimitError extends Error {
  override name = 'ImapLimitError'
  readonly limit: ImapLimit
  /** what was running when the limit was hit (a command name, never server data) */
  readonly phase: string
  constructor(limit: ImapLimit, phase: string) {
    super(`IMAP ${phase}: ${limit}`)
    this.limit = limit
    this.phase = phase
  }
}

/** imapflow's parser limits for the service: a message above MAX_MESSAGE_BYTES is never held. */
export function parserLimits(maxMessageBytes: number) {
  const maxLiteralSize = maxMessageBytes + 1024 * 1024
  return {
    maxLiteralSize,
    // a literal's marker line and the rest of the FETCH response come on top of the literal
    maxResponseSize: maxLiteralSize + 1024 * 1024,
    // a line without a literal: a SEARCH answer of about a million UIDs fits (MAX_FOLDER_MESSAGES is far below)
    maxLineLength: 8 * 1024 * 1024,
    // every token costs about a hundred bytes of heap: 200,000 of them are some 20 MB
    maxResponseTokens: 200_000,
  }
}

export interface CommandBudget {
  /** bytes the server may send while the command runs */
  bytes: number
  /** how long it may take */
  ms: number
}

/** Budgets of the sync's commands. The bytes are far above what an honest answer needs. */
export const BUDGETS = {
  /** LIST with STATUS: 1,000 folders are some 150 KB */
  list: { bytes: 2 * 1024 * 1024 },
  /** a STORE, MOVE or EXPUNGE of one message (its FETCH, COPYUID and EXPUNGE answers) */
  store: { bytes: 1024 * 1024 },
  /** STATUS of one folder */
  status: { bytes: 64 * 1024 },
  /** SELECT/EXAMINE, with QRESYNC's VANISHED and flag changes */
  select: { bytes: 32 * 1024 * 1024 },
  /** UID SEARCH: a line of UIDs (imapflow's line limit bounds one answer too) */
  search: { bytes: 16 * 1024 * 1024 },
  /** a FETCH of flags or sizes (each item some 60 bytes) */
  flags: { bytes: 64 * 1024 * 1024 },
} as const

/**
 * The guard of one connection: counts what the server sends, and closes the connection when a
 * guarded command goes over its budget or its time, or the sync over its own deadline.
 */
export class ImapGuard {
  private received = 0
  private limit: { until: number; phase: string } | undefined
  private timer: NodeJS.Timeout | undefined
  private syncTimer: NodeJS.Timeout | undefined
  private tripped: ImapLimitError | undefined
  private readonly client: ImapFlow

  constructor(client: ImapFlow, options: { deadlineMs?: number; signal?: AbortSignal } = {}) {
    this.client = client
    const socket = (client as unknown as { socket?: NodeJS.EventEmitter | null }).socket
    // a listener beside imapflow's pipe: it sees each chunk as the parser does, and closes the
    // connection before the next one is read
    socket?.on('data', (chunk: Buffer) => {
      this.received += chunk.length
      if (this.limit && this.received > this.limit.until) this.trip('too-large', this.limit.phase)
    })
    // imapflow's parser refusing a literal, a line or a response over parserLimits: it closes the
    // connection itself, and the command in flight fails only with NoConnection
    client.on('error', (error: { code?: unknown }) => {
      if (error?.code === 'LiteralTooLarge' || error?.code === 'LineTooLarge' || error?.code === 'ResponseTooLarge') this.trip('too-large', this.limit?.phase ?? 'parse')
    })
    if (options.deadlineMs !== undefined) this.syncTimer = setTimeout(() => this.trip('deadline', 'sync'), options.deadlineMs)
    if (options.signal) {
      const { signal } = options
      const onAbort = () => this.abort()
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
      this.unlisten = () => signal.removeEventListener('abort', onAbort)
    }
  }

  private unlisten = () => {}

  /** Runs one command (or a run of them) under a budget; its failure after a trip is the ImapLimitError. */
  async run<T>(phase: string, budget: CommandBudget, command: () => Promise<T>): Promise<T> {
    this.check()
    this.limit = { until: this.received + budget.bytes, phase }
    this.timer = setTimeout(() => this.trip('deadline', phase), budget.ms)
    try {
      const result = await command()
      this.check()
      return result
    } catch (error) {
      this.check()
      throw error
    } finally {
      clearTimeout(this.timer)
      this.limit = undefined
    }
  }

  /** Throws the limit that closed the connection, if one did. */
  check(): void {
    if (this.tripped) throw this.tripped
  }

  /** Closes the connection now (the process is stopping). */
  abort(): void {
    this.trip('stopped', 'stop')
  }

  get error(): ImapLimitError | undefined {
    return this.tripped
  }

  /** Bytes received so far on this connection. */
  get bytesReceived(): number {
    return this.received
  }

  dispose(): void {
    clearTimeout(this.timer)
    clearTimeout(this.syncTimer)
    this.unlisten()
  }

  private trip(limit: ImapLimit, phase: string): void {
    if (this.tripped) return
    this.tripped = new ImapLimitError(limit, phase)
    this.dispose()
    this.client.close()
  }
}
