// How an age failure answers over HTTP: always 4xx with { success: false, message }, and
// needsRecreation for a stored key that is not a passphrase-locked age key (the decrypt
// result). 403 for a wrong master password, 409 for a key to recreate, 422 for a message meant
// for another key, 400 for text that is not (or no longer) an age message or key.
import type { Context } from 'hono'
import type { AgeFailure, AgeFailureKind } from '../../shared/age-core.ts'

const STATUS = {
  malformed: 400,
  damaged: 400,
  'invalid-private-key': 400,
  'wrong-key': 422,
  'wrong-password': 403,
  'needs-recreation': 409,
} as const satisfies Record<AgeFailureKind, number>

export function ageFailure(c: Context, failure: AgeFailure) {
  return c.json({ success: false as const, needsRecreation: failure.kind === 'needs-recreation', message: failure.message }, STATUS[failure.kind])
}
