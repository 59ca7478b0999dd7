// Numbers and flags as an IMAP server sends them, checked before they reach a column: imapflow
// reads any digits the server writes, and a value past a column's range (a UID of 2^40, a count of
// 10^12, a MODSEQ past 2^63) would make Postgres refuse the statement on every sync of the account.
import type { ServerFlags } from '../../db/received-emails.ts'

const INT4_MAX = 2 ** 31 - 1
const INT8_MAX = 2n ** 63n - 1n

/** RFC 3501 §2.3.1.1: a UID (and a UIDVALIDITY) is a non-zero 32-bit number. */
export const imapUid = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= 0xffffffff

/** A count or size for an integer column: negative or unreadable is 0, past the column its largest value. */
export function storableInteger(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : Number(value)
  if (!Number.isFinite(n) || n <= 0) return 0
  return Math.min(Math.floor(n), INT4_MAX)
}

/** RFC 7162 §7: a mod-sequence is a positive 63-bit number; anything else is as if the server had none. */
export function storableModseq(value: bigint | number | string | undefined | null): bigint | null {
  if (value === undefined || value === null) return null
  let n: bigint
  try {
    n = BigInt(value)
  } catch {
    return null
  }
  return n >= 1n && n <= INT8_MAX ? n : null
}

export function serverFlags(uid: number, flags: Set<string> | undefined, modseq: bigint | undefined): ServerFlags {
  return { uid, isRead: !!flags?.has('\\Seen'), isStarred: !!flags?.has('\\Flagged'), isAnswered: !!flags?.has('\\Answered'), modseq: storableModseq(modseq) }
}
