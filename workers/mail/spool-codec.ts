// What the MX stores for each accepted message, sealed at rest (SecretBox purpose 'spool'): the
// raw message under the row id as associated data, and the envelope and authentication results
// (`meta`) under `<id>:meta`. A sealed value copied to another row fails to open.
import { SecretBox } from '../../lib/secret-box.ts'

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

export interface SpoolMeta {
  /** envelope sender, '' for the null sender */
  mailFrom: string
  remoteAddress: string
  helo: string
  secure: boolean
  receivedAt: string
  auth: AuthSummary
}

export class SpoolCodec {
  readonly #box: SecretBox

  constructor(secretKey: string) {
    this.#box = new SecretBox(secretKey, 'spool')
  }

  sealRaw(id: string, raw: Buffer): Buffer {
    return this.#box.seal(raw, id)
  }

  openRaw(id: string, sealed: Buffer): Buffer {
    return this.#box.open(sealed, id)
  }

  sealMeta(id: string, meta: SpoolMeta): Buffer {
    return this.#box.seal(JSON.stringify(meta), `${id}:meta`)
  }

  openMeta(id: string, sealed: Buffer): SpoolMeta {
    return JSON.parse(this.#box.openText(sealed, `${id}:meta`)) as SpoolMeta
  }
}
