// Loop detection (RFC 5321 §6.3): every message we forward for an alias carries
// `X-Veilmail-Loop: <token>`, a keyed hash of the alias id. When such a message comes back to
// the same alias (a recipient mailbox forwarding to the alias again) the MX refuses it.
import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto'

export const LOOP_HEADER = 'X-Veilmail-Loop'

/** tokens kept (the oldest made goes first): some hundred kB */
const MAX_KNOWN = 10_000

export class LoopTokens {
  // a KeyObject made once: from bytes, Node would make one per token
  readonly #key: KeyObject

  constructor(secretKey: string) {
    this.#key = createSecretKey(Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', 'loop-token', 32)))
  }

  // the MX asks for the token of each recipient alias on every message: an HMAC each time was a
  // few percent of its CPU per message; the token of an alias never changes
  readonly #known = new Map<string, string>()

  tokenFor(aliasId: string): string {
    let token = this.#known.get(aliasId)
    if (token === undefined) {
      token = createHmac('sha256', this.#key).update(aliasId).digest('base64url').slice(0, 22)
      if (this.#known.size >= MAX_KNOWN) this.#known.delete(this.#known.keys().next().value!)
      this.#known.set(aliasId, token)
    }
    return token
  }
}
