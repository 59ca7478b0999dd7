// A compose field holding several addresses (To, Cc): comma- or semicolon-separated bare
// addresses, each checked on its own and named when it is not one, duplicates (any case) kept
// once. A message goes to at most MAX_MESSAGE_RECIPIENTS people, To and Cc together, as Gmail and
// Outlook cap theirs. Shared with the compose forms: keep it free of Node-only imports.
import * as v from 'valibot'

/** Recipients of one message, To and Cc together. */
export const MAX_MESSAGE_RECIPIENTS = 50
export const TOO_MANY_RECIPIENTS = `A message can go to at most ${MAX_MESSAGE_RECIPIENTS} recipients (To and Cc together)`
/** What one field may hold before it is split: every address at its longest, with its separator. */
const MAX_FIELD_CHARS = MAX_MESSAGE_RECIPIENTS * 256

export const NO_LINE_BREAKS = /^[^\r\n]*$/
export const HEADER_INJECTION_MESSAGE = 'Header values cannot contain line breaks'

/** The field's addresses as typed (trimmed, empty entries dropped), each once whatever its case. */
export function splitAddresses(field: string): string[] {
  const seen = new Set<string>()
  return field.split(/[,;]/).map((a) => a.trim()).filter((a) => {
    const key = a.toLowerCase()
    if (!a || seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** One bare address (no name, no quotes, no angle brackets), at most 254 characters (RFC 5321 §4.5.3.1.3). */
const isAddress = (a: string) => a.length <= 254 && v.EMAIL_REGEX.test(a)

const notAnAddress = (a: string) => `"${a.length > 80 ? `${a.slice(0, 80)}…` : a}" is not a valid email address`

/**
 * A To or Cc field: a text of addresses, or a list with one address in each entry (an entry
 * holding a separator is refused, never split); their list out. `required` is the message for an
 * empty field.
 */
export const RecipientList = (required?: string) => {
  const kind = required ?? 'Recipients must be a text of addresses or a list of addresses'
  return v.pipe(
    v.optional(v.union([v.string(kind), v.array(v.string(kind), kind)], kind), ''),
    v.description(`One address, or several: a text of addresses separated by commas or semicolons, or a list of addresses (one in each entry). Bare addresses only (no names); duplicates are sent to once. At most ${MAX_MESSAGE_RECIPIENTS} recipients, To and Cc together.`),
    v.check((s) => [s].flat().every((a) => NO_LINE_BREAKS.test(a)), HEADER_INJECTION_MESSAGE),
    v.check((s) => [s].flat().reduce((n, a) => n + a.length + 2, 0) <= MAX_FIELD_CHARS, TOO_MANY_RECIPIENTS),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (!Array.isArray(dataset.value)) return splitAddresses(dataset.value)
      const joined = dataset.value.find((a) => /[,;]/.test(a))
      if (joined === undefined) return splitAddresses(dataset.value.join(','))
      addIssue({ message: notAnAddress(joined.trim()) })
      return NEVER
    }),
    v.check((list) => !required || list.length > 0, required ?? ''),
    v.rawCheck(({ dataset, addIssue }) => {
      const bad = dataset.typed ? dataset.value.find((a) => !isAddress(a)) : undefined
      if (bad !== undefined) addIssue({ message: notAnAddress(bad) })
    }),
    v.maxLength(MAX_MESSAGE_RECIPIENTS, TOO_MANY_RECIPIENTS),
  )
}
