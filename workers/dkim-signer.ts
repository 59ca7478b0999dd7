// DKIM-signs what leaves for the alias domain (RFC 6376, relaxed/relaxed, rsa-sha256) with the
// key of that domain. The signature covers From, Reply-To, To, Cc, Subject, Date, Message-ID and
// the MIME fields, so the rewritten headers are what a receiver verifies.
import { dkimSign } from 'mailauth'
import type { DkimKey } from '../lib/dkim-keys.ts'

const SIGNED = ['from', 'sender', 'reply-to', 'to', 'cc', 'subject', 'date', 'message-id', 'in-reply-to', 'references',
  'mime-version', 'content-type', 'content-transfer-encoding', 'list-unsubscribe', 'list-unsubscribe-post']

export class DkimSigner {
  readonly #keys: Map<string, DkimKey>

  constructor(keys: Map<string, DkimKey>) {
    this.#keys = keys
  }

  async sign(raw: Buffer, domain: string): Promise<Buffer> {
    const key = this.#keys.get(domain)
    if (!key) throw new Error('no DKIM key for this alias domain')
    const entry = { signingDomain: domain, selector: key.selector, privateKey: key.privateKey }
    const result = await dkimSign(raw, { ...entry, headerList: SIGNED, signatureData: [entry] })
    if (result.errors.length || !result.signatures) throw new Error('DKIM signing failed')
    return Buffer.concat([Buffer.from(result.signatures), raw])
  }
}
