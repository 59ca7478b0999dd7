// The From binding of the submission server: a message we DKIM-sign for an alias must show that
// alias, and only it, to every reader. From and Sender are read with a strict RFC 5322 §3.4
// mailbox grammar (no obsolete forms of §4.4: no quoted or commented local part, no CFWS
// around "@" or inside the angle brackets, no route, no group) and again with nodemailer's
// addressparser, the reader mail clients use; the two must agree, so a form one reader takes
// for another address than the other never gets our signature.
//
// Decisions (docs/decisions/0022-from-binding.md):
// - the local part compares case-insensitively, like the domain: our domains route local parts
//   case-insensitively (aliases are unique on lower(alias)), so Alias@ and alias@ are one mailbox;
//   what must be exact is the spelling: a dot-atom, never a quoted or escaped equivalent.
// - a display name (or comment) holding an address other than the alias is refused, even when the
//   real address is the alias: many clients show only the name, and our signature would vouch
//   for it. It is read as a mail program may show it: encoded words (RFC 2047) decoded word by
//   word and with adjacent words' bytes joined (a character split between two words), then
//   Unicode NFKC, so a full-width ＠ (U+FF20) or a small ﹫ (U+FE6B) reads as "@" (issue 25).
// - control characters (bare CR or LF, NUL, the rest of C0 and C1, U+2028/U+2029) in an originator
//   field, raw or encoded, are refused: readers break or hide the line at different places.
// - every originator field we sign is bound: From, Sender, Resent-From and Resent-Sender (RFC 5322
//   §3.6.2, §3.6.6) each name exactly one mailbox, the alias; an earlier resent block naming
//   someone else cannot be kept either, since our signature would vouch for it.
import { isUtf8 } from 'node:buffer'
import addressparser from 'nodemailer/lib/addressparser'
import { decodeWords } from '../../lib/mime-words.ts'
import { fieldValue, utf8, type HeaderField } from '../../lib/raw-message.ts'
import { SmtpReply } from '../mail/smtp-reply.ts'

type TokenKind = 'atom' | 'quoted' | 'comment' | 'space' | 'special'
interface Token { kind: TokenKind; text: string }

export interface StrictMailbox { address: string; shown: string }

// RFC 5322 §3.2.3 atext, with "." (dot-atom, obs-phrase) and non-ASCII (RFC 6532) allowed
const ATEXT = /[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.\u0080-\uffff]/
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?:\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/
const DOMAIN = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/
/** What separates words a reader sees in a display name or comment ("@" is not among them). */
const WORD_BREAK = /[\s<>"(),;:[\]]+/
/** C0 controls but TAB, DEL, C1 controls, line and paragraph separators. */
const CONTROL = /[\0-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/
/** A run of encoded words (RFC 2047 §6.2: the space between them is not shown). */
const WORD_RUN = /=\?[^?\s]+\?[bq]\?[^?\s]*\?=(?:\s*=\?[^?\s]+\?[bq]\?[^?\s]*\?=)*/gi
const WORD = /=\?([^?\s*]+)(?:\*[^?\s]*)?\?([bq])\?([^?\s]*)\?=/gi

/** Quoted strings and (nested) comments with their quoted-pairs (RFC 5322 §3.2.1–3.2.4); undefined when one is left open. */
function tokenize(value: string): Token[] | undefined {
  const tokens: Token[] = []
  let i = 0
  while (i < value.length) {
    const c = value[i]
    if (c === ' ' || c === '\t') {
      let j = i
      while (value[j] === ' ' || value[j] === '\t') j++
      tokens.push({ kind: 'space', text: value.slice(i, j) })
      i = j
    } else if (c === '"' || c === '(') {
      let depth = 0
      let text = ''
      let j = i
      for (; j < value.length; j++) {
        const d = value[j]
        if (d === '\\' && j + 1 < value.length) { text += value[++j]; continue }
        if (c === '"' && d === '"' && j > i) break
        if (c === '(' && d === '(') { depth++; if (depth === 1) continue }
        if (c === '(' && d === ')') { depth--; if (depth === 0) break }
        if (j > i) text += d
      }
      if (j >= value.length) return undefined
      tokens.push({ kind: c === '"' ? 'quoted' : 'comment', text })
      i = j + 1
    } else if (ATEXT.test(c)) {
      let j = i
      while (j < value.length && ATEXT.test(value[j])) j++
      tokens.push({ kind: 'atom', text: value.slice(i, j) })
      i = j
    } else {
      tokens.push({ kind: 'special', text: c }) // ()<>[]:;@\,  and control characters
      i++
    }
  }
  return tokens
}

const isCfws = (t: Token) => t.kind === 'space' || t.kind === 'comment'
const isSpecial = (t: Token, c: string) => t.kind === 'special' && t.text === c

/** `local@domain` from exactly three tokens, atom "@" atom, with nothing between them. */
function addrSpec(tokens: Token[]): string | undefined {
  if (tokens.length !== 3 || tokens[0].kind !== 'atom' || !isSpecial(tokens[1], '@') || tokens[2].kind !== 'atom') return undefined
  const [local, , domain] = tokens
  if (!DOT_ATOM.test(local.text) || local.text.length > 64 || !DOMAIN.test(domain.text)) return undefined
  return `${local.text}@${domain.text.toLowerCase()}`
}

/** One mailbox (RFC 5322 §3.4, strict): `addr-spec` or `[phrase] <addr-spec>`, CFWS only around them. */
function strictMailbox(tokens: Token[]): StrictMailbox | undefined {
  const open = tokens.findIndex((t) => isSpecial(t, '<'))
  if (open < 0) {
    let start = 0
    let end = tokens.length
    while (start < end && isCfws(tokens[start])) start++
    while (end > start && isCfws(tokens[end - 1])) end--
    const address = addrSpec(tokens.slice(start, end))
    return address ? { address, shown: tokens.filter((t) => t.kind === 'comment').map((t) => t.text).join(' ') } : undefined
  }
  const close = tokens.findIndex((t) => isSpecial(t, '>'))
  if (close < open) return undefined
  const phrase = tokens.slice(0, open)
  if (!phrase.every((t) => t.kind === 'atom' || t.kind === 'quoted' || isCfws(t))) return undefined
  if (!tokens.slice(close + 1).every(isCfws)) return undefined
  const address = addrSpec(tokens.slice(open + 1, close))
  if (!address) return undefined
  const shown = [...phrase, ...tokens.slice(close + 1)].filter((t) => t.kind !== 'space').map((t) => t.text).join(' ')
  return { address, shown }
}

/** Every mailbox of an address list, strictly; undefined for anything else (groups, empty entries, stray specials). */
export function parseStrictMailboxes(value: string): StrictMailbox[] | undefined {
  const tokens = tokenize(value)
  if (!tokens) return undefined
  const entries: Token[][] = [[]]
  for (const t of tokens) {
    if (isSpecial(t, ',')) entries.push([])
    else entries[entries.length - 1].push(t)
  }
  const mailboxes: StrictMailbox[] = []
  for (const entry of entries) {
    const mailbox = strictMailbox(entry)
    if (!mailbox) return undefined
    mailboxes.push(mailbox)
  }
  return mailboxes
}

/** The strict reading of a field's value, checked against addressparser's: same mailboxes in the same order, no group. */
function readAddressField(value: string): StrictMailbox[] | undefined {
  const strict = parseStrictMailboxes(value)
  if (!strict) return undefined
  const loose = addressparser(value)
  if (loose.length !== strict.length) return undefined
  for (const [i, entry] of loose.entries()) {
    if ('group' in entry && entry.group) return undefined
    if (typeof entry.address !== 'string' || entry.address.toLowerCase() !== strict[i].address.toLowerCase()) return undefined
  }
  return strict
}

const refuse = (text: string) => new SmtpReply(550, `5.7.1 ${text}`)

type FieldName = 'From' | 'Sender' | 'Resent-From' | 'Resent-Sender' | 'Reply-To'

function textDecoder(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset)
  } catch {
    return new TextDecoder('utf-8')
  }
}

/**
 * Encoded words decoded with the bytes of adjacent words in one charset joined before decoding,
 * as some mail programs do: a UTF-8 ＠ split between two words, or an ISO-2022-JP word that ends
 * in the two-byte mode the next one is read in, shows there as "＠" while decodeWords, word by
 * word, sees only broken characters or ASCII.
 */
function decodeJoinedWords(text: string): string {
  return text.replace(WORD_RUN, (run) => {
    const groups: { charset: string; bytes: Buffer[] }[] = []
    for (const [, charset, encoding, data] of run.matchAll(WORD)) {
      const bytes = encoding.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64')
        : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
      const last = groups[groups.length - 1]
      if (last && last.charset === charset.toLowerCase()) last.bytes.push(bytes)
      else groups.push({ charset: charset.toLowerCase(), bytes: [bytes] })
    }
    return groups.map((g) => textDecoder(g.charset).decode(Buffer.concat(g.bytes))).join('')
  })
}

/** How a display name or comment may be shown: as sent, decoded word by word, decoded joined; each also after NFKC. */
function readings(shown: string): string[] {
  const decoded = [shown, decodeWords(shown), decodeJoinedWords(shown)]
  return [...decoded, ...decoded.map((text) => text.normalize('NFKC'))]
}

/**
 * The addresses a reader could see in a display name or comment: a word with an "@" inside it,
 * and, once the spaces around each "@" are taken out, one with a dotted domain (`ceo @ bank.test`,
 * not `Team @ Work`). Split and trimmed, not matched with a backtracking pattern: the text can be
 * as long as the message, and a pattern like /\S+@\S+/ takes quadratic time on a long word.
 */
function addressesShown(text: string): string[] {
  const inner = (word: string) => word.includes('@') && !word.startsWith('@') && !word.endsWith('@')
  const pieces = text.split('@')
  const unspaced = pieces.map((p, i) => (i > 0 ? p.trimStart() : p)).map((p, i) => (i < pieces.length - 1 ? p.trimEnd() : p)).join('@')
  return [
    ...text.split(WORD_BREAK).filter(inner),
    ...unspaced.split(WORD_BREAK).filter((w) => inner(w) && w.slice(w.lastIndexOf('@')).includes('.')),
  ]
}

/** 8-bit text must be UTF-8 (RFC 6532 §3.2), and no control characters: refused otherwise. */
function checkFieldText(field: HeaderField, name: FieldName): string {
  const raw = fieldValue(field)
  if (!isUtf8(Buffer.from(raw, 'latin1'))) throw refuse(`The ${name} header must be written in UTF-8 (RFC 6532)`)
  const value = utf8(raw)
  if (CONTROL.test(value)) throw refuse(`The ${name} header must not contain control characters such as a bare CR or LF, or NUL`)
  return value
}

/** The one mailbox of an originator field, which must be `alias`, shown with no other address. */
function checkOwnMailbox(field: HeaderField, alias: string, name: Exclude<FieldName, 'Reply-To'>): void {
  const mailboxes = readAddressField(checkFieldText(field, name))
  if (!mailboxes) throw refuse(`The ${name} header could not be read unambiguously: write it as your alias address or "Name" <alias address>`)
  if (mailboxes.length !== 1) throw refuse(`The ${name} header must name exactly one mailbox, your alias address`)
  const [mailbox] = mailboxes
  if (mailbox.address.toLowerCase() !== alias) throw refuse(`The ${name} header must be your alias address`)
  for (const text of readings(mailbox.shown)) {
    if (CONTROL.test(text)) throw refuse(`The ${name} display name must not contain control characters such as a bare CR or LF, or NUL`)
    if (addressesShown(text).some((a) => a.toLowerCase() !== alias)) {
      throw refuse(`The ${name} display name must not contain another address than your alias`)
    }
  }
}

/**
 * From (exactly one field, RFC 5322 §3.6) and Sender (at most one) must be the alias, and so must
 * every Resent-From and Resent-Sender (§3.6.6); Reply-To (at most one) may name any mailboxes but
 * must read the same to every parser. `alias` is the authenticated alias address, lower-cased.
 */
export function checkFromBinding(headers: HeaderField[], alias: string): void {
  const from = headers.filter((h) => h.key === 'from')
  if (from.length !== 1) throw refuse('The message must have exactly one From header, your alias address')
  checkOwnMailbox(from[0], alias, 'From')
  const sender = headers.filter((h) => h.key === 'sender')
  if (sender.length > 1) throw refuse('The Sender header must be your alias address, once')
  if (sender.length) checkOwnMailbox(sender[0], alias, 'Sender')
  for (const field of headers.filter((h) => h.key === 'resent-from')) checkOwnMailbox(field, alias, 'Resent-From')
  for (const field of headers.filter((h) => h.key === 'resent-sender')) checkOwnMailbox(field, alias, 'Resent-Sender')
  const replyTo = headers.filter((h) => h.key === 'reply-to')
  if (replyTo.length > 1) throw refuse('The message may have only one Reply-To header')
  if (replyTo.length && !readAddressField(checkFieldText(replyTo[0], 'Reply-To'))) {
    throw refuse('The Reply-To header could not be read unambiguously: list plain addresses or "Name" <address>, separated by commas')
  }
}
