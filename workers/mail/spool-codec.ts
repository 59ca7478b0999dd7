// What the MX stores for each accepted message, sealed at rest (SecretBox purpose 'spool'): the
// raw message in chunks of at most SPOOL_CHUNK_BYTES, each sealed on its own so that the MX and a
// delivery hold one chunk of a large message at a time (docs/mail-flow.md, "Streaming"), and the envelope and
// authentication results (`meta`) under `<id>:meta`. Rows spooled before chunking hold the
// message as one sealed value under the row id (`openRaw`). A sealed value copied to another row
// fails to open.
import { SecretBox } from '../../lib/secret-box.ts'

/** A chunk of a spooled message: what the MX and a delivery hold of a message at a time, and the unit of a read. */
export const SPOOL_CHUNK_BYTES = 64 * 1024

/** A spooled message that does not open as it was sealed: a chunk missing, altered, moved, or from another row. */
export class SpoolDamagedError extends Error {
  override name = 'SpoolDamagedError'
}

/**
 * A chunk's associated data names its row, its place and whether it is the last: a chunk moved to
 * another place or row fails to open, and so does a message cut short (its new last chunk was not
 * sealed as the last) or one whose count was raised (the old last chunk was).
 */
const chunkData = (id: string, seq: number, last: boolean) => `${id}:chunk:${seq}:${last ? 'last' : 'more'}`

export interface AuthSummary {
  spf: string
  /** 'pass' when any signature passed, else the first result, 'none' without a signature */
  dkim: string
  dmarc: string
  arc: string
  /** domains (d=) of the DKIM signatures that passed */
  dkimPassDomains: string[]
  /** domains (d=) of the DKIM signatures that failed against a published key (a forgery, or altered in transit) */
  dkimFailDomains: string[]
  /** Authentication-Results and Received-SPF fields (RFC 8601, RFC 7208 §9.1), CRLF-terminated */
  headers: string
}

/** rspamd's verdict at the MX (workers/mx/spam-check.ts), shown on the forward as X-Spam-Status and X-Spam-Score. */
export interface SpamVerdict {
  /** rspamd's action: `add header` or `rewrite subject` make it spam */
  action: string
  score: number
  requiredScore: number
  spam: boolean
}

export interface SpoolMeta {
  /** envelope sender, '' for the null sender */
  mailFrom: string
  remoteAddress: string
  helo: string
  secure: boolean
  receivedAt: string
  auth: AuthSummary
  /** absent when no spam filter scored it (none configured, or it was away: the MX fails open) */
  spam?: SpamVerdict
}

/** The meta as sealed: without `auth` when the MX left the check to the delivery (workers/mail/message-auth.ts). */
export type StoredMeta = Omit<SpoolMeta, 'auth'> & { auth?: AuthSummary }

export class SpoolCodec {
  readonly #box: SecretBox

  constructor(secretKey: string) {
    this.#box = new SecretBox(secretKey, 'spool')
  }

  /**
   * Compressed before sealing when that shrinks it (zstd level 1, lib/secret-box.ts): mail is mostly
   * text, and every byte of a chunk is sent to Postgres as base64, sliced into TOAST rows, written
   * to the WAL and read back by the delivery. Sizes are no secret of the spool (`size` is stored
   * plain), and a chunk holds one message's bytes only, so compression tells nothing across mail.
   */
  sealChunk(id: string, seq: number, last: boolean, data: Uint8Array): Buffer {
    return this.#box.seal(data, chunkData(id, seq, last), { compress: true })
  }

  /** Throws SpoolDamagedError when the chunk is not the one sealed for this place of this row. */
  openChunk(id: string, seq: number, last: boolean, sealed: Uint8Array): Buffer {
    try {
      return this.#box.open(sealed, chunkData(id, seq, last))
    } catch {
      throw new SpoolDamagedError(`chunk ${seq} does not open`)
    }
  }

  /** A row spooled before chunking: the whole message, sealed as one value. */
  openRaw(id: string, sealed: Buffer): Buffer {
    try {
      return this.#box.open(sealed, id)
    } catch {
      throw new SpoolDamagedError('the message does not open')
    }
  }

  sealMeta(id: string, meta: StoredMeta): Buffer {
    return this.#box.seal(JSON.stringify(meta), `${id}:meta`)
  }

  openMeta(id: string, sealed: Buffer): StoredMeta {
    return JSON.parse(this.#box.openText(sealed, `${id}:meta`)) as StoredMeta
  }
}
