// The inbox search box's language (issue 26): plain words and "quoted phrases" match anywhere
// (subject, sender, recipients here; the body on the user's own IMAP server), and Gmail's usual
// operators narrow the stored rows. Keep this file free of Node-only imports: the browser bundles it.

/** What a search asks for. Every part must hold (AND); words are matched as substrings, case-insensitively. */
export interface MailSearch {
  /** plain words and phrases: in the subject, the sender or the recipients, or in the body */
  words: string[]
  from: string[]
  to: string[]
  subject: string[]
  hasAttachment: boolean
  /** is:unread (true) or is:read (false) */
  unread?: boolean
  starred: boolean
  /** received before this day (YYYY-MM-DD, UTC midnight), or on or after it */
  before?: string
  after?: string
}

export const MAX_QUERY_CHARS = 500
/** More terms than anyone types: each costs a condition here and a command on each IMAP server. */
export const MAX_TERMS = 12

export type ParsedSearch = { ok: true; search: MailSearch } | { ok: false; message: string }

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** A day as YYYY-MM-DD (also YYYY/MM/DD, as Gmail writes it), or undefined when it is no real date. */
function parseDay(value: string): string | undefined {
  const m = DAY.exec(value.replaceAll('/', '-'))
  if (!m) return undefined
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${m[1]}-${m[2]}-${m[3]}`) return undefined
  return date.toISOString().slice(0, 10)
}

/**
 * Splits the query into tokens: a run of non-space characters, in which a double quote opens a
 * phrase that runs to the next quote (or to the end, when the quote is never closed). Control
 * characters are spaces: nothing of them reaches SQL or an IMAP command.
 */
function tokens(query: string): { key?: string; value: string }[] {
  const text = query.replace(/[\u0000-\u001f\u007f]/g, ' ')
  const out: { key?: string; value: string }[] = []
  let i = 0
  while (i < text.length) {
    while (text[i] === ' ') i++
    if (i >= text.length) break
    const start = i
    let raw = ''
    while (i < text.length && text[i] !== ' ') {
      if (text[i] === '"') {
        const close = text.indexOf('"', i + 1)
        const end = close === -1 ? text.length : close
        raw += text.slice(i + 1, end)
        i = end + 1
      } else {
        raw += text[i++]
      }
    }
    // an operator is a name and a colon as typed, before any quote: from:"Ann Lee", not "from:x"
    const op = /^([a-z]+):/i.exec(text.slice(start, i))
    out.push(op ? { key: op[1].toLowerCase(), value: raw.slice(op[0].length) } : { value: raw })
  }
  return out
}

export function parseMailSearch(query: string): ParsedSearch {
  if (query.length > MAX_QUERY_CHARS) return { ok: false, message: `The search is too long (at most ${MAX_QUERY_CHARS} characters)` }
  const search: MailSearch = { words: [], from: [], to: [], subject: [], hasAttachment: false, starred: false }
  let terms = 0
  for (const { key, value } of tokens(query)) {
    const term = value.trim().replace(/\s+/g, ' ')
    switch (key) {
      case 'from': case 'to': case 'subject':
        if (term) search[key].push(term)
        break
      case 'has':
        if (term.toLowerCase() !== 'attachment') return { ok: false, message: 'has: takes attachment (has:attachment)' }
        search.hasAttachment = true
        break
      case 'is': {
        const flag = term.toLowerCase()
        if (flag === 'unread') search.unread = true
        else if (flag === 'read') search.unread = false
        else if (flag === 'starred') search.starred = true
        else return { ok: false, message: 'is: takes unread, read or starred' }
        break
      }
      case 'before': case 'after': {
        const day = parseDay(term)
        if (!day) return { ok: false, message: `${key}: takes a date as YYYY-MM-DD` }
        search[key] = day
        break
      }
      default: {
        // an unknown name before a colon (a time, a URL) is part of the words
        const word = key === undefined ? term : `${key}:${term}`
        if (word) search.words.push(word)
      }
    }
    if (++terms > MAX_TERMS) return { ok: false, message: `The search has too many terms (at most ${MAX_TERMS})` }
  }
  return { ok: true, search }
}

/** Whether the search narrows anything at all (an empty or blank query lists everything). */
export function isEmptySearch(s: MailSearch): boolean {
  return s.words.length + s.from.length + s.to.length + s.subject.length === 0 && !s.hasAttachment && s.unread === undefined && !s.starred && !s.before && !s.after
}
