// What a forward says of rspamd's verdict at the MX (workers/mx/spam-check.ts): X-Spam-Status
// (`Yes` or `No`, the score, the score rspamd rejects at and its action, as SpamAssassin's field
// reads) and X-Spam-Score, on every forward of a scored message; the alias's spam handling
// 'tag-subject' also puts [SPAM] before the Subject of spam. Fields of those names that came with the
// message are dropped first: anyone can write "X-Spam-Status: No" into a message.
import { makeField, type HeaderField } from '../../lib/raw-message.ts'
import type { SpamVerdict } from '../mail/spool-codec.ts'

/** Upstream fields only our spam filter may set on a forward. */
export const SPAM_FIELDS = ['x-spam-status', 'x-spam-score', 'x-spam-flag', 'x-spam']

export const SPAM_SUBJECT_TAG = '[SPAM]'

const score = (n: number) => (Math.round(n * 100) / 100).toFixed(2)

export function spamFields(verdict: SpamVerdict): HeaderField[] {
  return [
    makeField('X-Spam-Status', `${verdict.spam ? 'Yes' : 'No'}, score=${score(verdict.score)} required=${score(verdict.requiredScore)} action=${verdict.action.replace(/[^a-z ]/gi, '').replace(/ /g, '_')}`),
    makeField('X-Spam-Score', score(verdict.score)),
  ]
}

/** The Subject field with the tag before its value, its bytes otherwise as they came. */
export function taggedSubject(field: HeaderField | undefined): HeaderField {
  if (!field) return makeField('Subject', SPAM_SUBJECT_TAG)
  const colon = field.line.indexOf(':')
  return { key: field.key, line: `${field.line.slice(0, colon + 1)} ${SPAM_SUBJECT_TAG} ${field.line.slice(colon + 1).replace(/^[ \t]+/, '')}` }
}
