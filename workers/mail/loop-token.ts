// Loop detection (RFC 5321 §6.3): every message we forward for an alias carries
// `X-Veilmail-Loop: <token>`, a keyed hash of the alias id. When such a message comes back to
// the same alias (a recipient mailbox forwarding to the alias again) the MX refuses it.
import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto'

export const LOOP_HEADER = 'X-Veilmail-Loop'

export class LoopTokens {
  // a KeyObject made once: from bytes, Node would make one per token
  readonly #key: KeyObject

  constructor(secretKey: string) {
    this.#key = createSecretKey(Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', 'loop-token', 32)))
  }

  tokenFor(aliasId: string): string {
    return createHmac('sha256', this.#key).update(aliasId).digest('base64url').slice(0, 22)
  }
}
