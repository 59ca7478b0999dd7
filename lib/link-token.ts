// Signed single-purpose tokens carried by every forward (issue 30): the List-Unsubscribe URL and
// mailto (RFC 2369, RFC 8058) and the block link. No sign-in is needed to use one, so a token
// says exactly what it may do: its purpose, the one alias or contact it acts on, and when it
// expires, under an HMAC-SHA256 of a key derived for this purpose alone. Replays are refused by
// the caller, which records the hash of every token spent (db/link-token-uses.ts).
// Lower-case base32, 50 characters: it fits a local part (`unsubscribe+<token>@domain`, RFC 5321
// §4.5.3.1.1 allows 64) and survives mail systems that lower-case addresses.
import { createHash, createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto'
import { base32Decode, base32Encode } from './totp.ts'

/** unsubscribe: what a mail client's Unsubscribe does (the owner's setting); block: blocks the contact */
export type LinkPurpose = 'unsubscribe' | 'block'

export interface LinkSubject {
  purpose: LinkPurpose
  /** a contact (reverse alias id), or the alias itself when the message named no usable sender */
  kind: 'contact' | 'alias'
  id: string
  expiresAt: Date
}

/** How long a forward's links work: mail is read, and unsubscribed from, long after it came. */
export const LINK_TOKEN_DAYS = 180

const CODES: Record<string, number> = { 'unsubscribe/alias': 1, 'unsubscribe/contact': 2, 'block/contact': 3, 'block/alias': 4 }
const SUBJECTS = Object.fromEntries(Object.entries(CODES).map(([k, v]) => [v, k.split('/')])) as Record<number, [LinkPurpose, 'alias' | 'contact']>
const MAC_BYTES = 10
const BODY_BYTES = 1 + 16 + 4

const keys = new Map<string, KeyObject>()
function keyOf(secretKey: string): KeyObject {
  let key = keys.get(secretKey)
  if (!key) keys.set(secretKey, (key = createSecretKey(Buffer.from(hkdfSync('sha256', secretKey, 'veilmail', 'link-token', 32)))))
  return key
}

const mac = (secretKey: string, body: Buffer) => createHmac('sha256', keyOf(secretKey)).update(body).digest().subarray(0, MAC_BYTES)

export function signLinkToken(secretKey: string, subject: Omit<LinkSubject, 'expiresAt'>, now = new Date()): string {
  const body = Buffer.alloc(BODY_BYTES)
  body[0] = CODES[`${subject.purpose}/${subject.kind}`]
  Buffer.from(subject.id.replace(/-/g, ''), 'hex').copy(body, 1)
  body.writeUInt32BE(Math.floor(now.getTime() / 1000) + LINK_TOKEN_DAYS * 86400, 17)
  return base32(Buffer.concat([body, mac(secretKey, body)]))
}

/** What the token allows; 'expired' when it is ours but past its time; undefined when it is not ours. */
export function verifyLinkToken(secretKey: string, token: string, now = new Date()): LinkSubject | 'expired' | undefined {
  const raw = /^[a-z2-7]{50}$/i.test(token) ? base32Decode(token) : undefined
  // one spelling per token: the spent-token record could otherwise be dodged by the last letter's spare bits
  if (!raw || raw.length !== BODY_BYTES + MAC_BYTES || base32(raw) !== token.toLowerCase()) return undefined
  const body = raw.subarray(0, BODY_BYTES)
  if (!timingSafeEqual(raw.subarray(BODY_BYTES), mac(secretKey, body))) return undefined
  const subject = SUBJECTS[body[0]]
  if (!subject) return undefined
  const expiresAt = new Date(body.readUInt32BE(17) * 1000)
  if (expiresAt <= now) return 'expired'
  const hex = body.subarray(1, 17).toString('hex')
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  return { purpose: subject[0], kind: subject[1], id, expiresAt }
}

/** The key a spent token is recorded under (never the token itself). */
export const linkTokenHash = (token: string) => createHash('sha256').update(token.toLowerCase()).digest()

/** RFC 4648 §6 without padding, lower-cased (the TOTP secret's encoder). */
const base32 = (data: Buffer) => base32Encode(data).toLowerCase()
