// FETCH and SEARCH of the hostile IMAP server (RFC 3501 §6.4.4-5, §6.4.8; CHANGEDSINCE and MODSEQ
// of RFC 7162): the selected folder's messages by sequence number or UID, each body streamed in
// chunks with the socket's backpressure, so a message of any size costs no memory.
import type { HostileCommand, HostileMessage } from './hostile-imap.ts'
import type { SessionState } from './hostile-imap-commands.ts'
import { messageContent, modseqOf } from './hostile-imap-content.ts'
import { inRanges, internalDate, parseSequenceSet, type ImapParam } from './hostile-imap-wire.ts'

const DEFAULT_DATE = new Date(Date.UTC(2026, 0, 1))

interface BodyItem {
  /** the name the answer carries: BODY[] for BODY.PEEK[] (RFC 3501 §7.4.2), RFC822 for RFC822 */
  echo: string
  section: '' | 'HEADER' | 'TEXT'
  /** <origin.length> */
  partial?: [number, number]
}

interface FetchItems { uid: boolean; flags: boolean; size: boolean; internalDate: boolean; modseq: boolean; bodies: BodyItem[] }

const BODY_ITEM = /^(BODY|BINARY)(?:\.PEEK)?\[(|HEADER|TEXT)\](?:<(\d{1,10})\.(\d{1,10})>)?$/

/** The items asked for, or the first one this server does not know. */
function fetchItems(query: ImapParam | undefined): FetchItems | string {
  const items: FetchItems = { uid: false, flags: false, size: false, internalDate: false, modseq: false, bodies: [] }
  for (const item of Array.isArray(query) ? query : [query]) {
    if (typeof item !== 'string') return '(…)'
    const upper = item.toUpperCase()
    if (upper === 'UID') items.uid = true
    else if (upper === 'FLAGS') items.flags = true
    else if (upper === 'RFC822.SIZE') items.size = true
    else if (upper === 'INTERNALDATE') items.internalDate = true
    else if (upper === 'MODSEQ') items.modseq = true
    else if (upper === 'FAST') Object.assign(items, { flags: true, size: true, internalDate: true })
    else if (upper === 'RFC822') items.bodies.push({ echo: 'RFC822', section: '' })
    else if (upper === 'RFC822.HEADER') items.bodies.push({ echo: 'RFC822.HEADER', section: 'HEADER' })
    else if (upper === 'RFC822.TEXT') items.bodies.push({ echo: 'RFC822.TEXT', section: 'TEXT' })
    else {
      const body = BODY_ITEM.exec(upper)
      if (!body) return item
      const section = body[2] as BodyItem['section']
      items.bodies.push({ echo: `${body[1]}[${section}]`, section, ...(body[3] ? { partial: [Number(body[3]), Number(body[4])] } : {}) })
    }
  }
  return items
}

export async function answerFetch(command: HostileCommand, session: SessionState, messages: HostileMessage[], condstore: boolean): Promise<void> {
  const { tag, uid, params } = command
  const [set, query, modifiers] = params
  const ranges = typeof set === 'string' ? parseSequenceSet(set, uid ? (messages[messages.length - 1]?.uid ?? 0) : messages.length) : undefined
  if (!ranges) return session.sendLine(`${tag} BAD Invalid sequence set`)
  const items = fetchItems(query)
  if (typeof items === 'string') return session.sendLine(`${tag} BAD Unsupported FETCH item ${items.replace(/[^\x21-\x7e]/g, '?').slice(0, 64)}`)
  // RFC 7162 §3.1.4.1: FETCH … (CHANGEDSINCE n): only messages whose MODSEQ is above n, with their MODSEQ
  const modifierList = Array.isArray(modifiers) ? modifiers : []
  const at = modifierList.findIndex((m) => typeof m === 'string' && m.toUpperCase() === 'CHANGEDSINCE')
  const changedSince = at >= 0 ? Number(modifierList[at + 1]) : undefined
  if (changedSince !== undefined && (!condstore || !Number.isInteger(changedSince))) return session.sendLine(`${tag} BAD Invalid CHANGEDSINCE`)
  for (let i = 0; i < messages.length; i++) {
    if (session.closed) return
    const message = messages[i]
    if (!inRanges(ranges, uid ? message.uid : i + 1)) continue
    if (changedSince !== undefined && modseqOf(message) <= changedSince) continue
    await writeFetch(session, i + 1, message, { ...items, uid: items.uid || uid, modseq: items.modseq || changedSince !== undefined })
  }
  await session.sendLine(`${tag} OK ${uid ? 'UID ' : ''}FETCH completed`)
}

/** One `* n FETCH (…)` answer; each body a literal whose bytes are streamed. */
async function writeFetch(session: SessionState, seq: number, message: HostileMessage, items: FetchItems) {
  const content = messageContent(message)
  const simple: string[] = []
  if (items.uid) simple.push(`UID ${message.uid}`)
  // flags are atoms, written as given: a hostile flag goes on the wire as it is
  if (items.flags) simple.push(`FLAGS (${(message.flags ?? []).join(' ')})`)
  if (items.size) simple.push(`RFC822.SIZE ${message.reportedSize ?? content.size}`)
  if (items.internalDate) simple.push(`INTERNALDATE ${internalDate(message.internalDate ?? DEFAULT_DATE)}`)
  if (items.modseq) simple.push(`MODSEQ (${modseqOf(message)})`)
  let text = `* ${seq} FETCH (${simple.join(' ')}`
  let separator = simple.length ? ' ' : ''
  for (const body of items.bodies) {
    const [from, to] = body.section === 'HEADER' ? [0, content.headerSize] : body.section === 'TEXT' ? [content.headerSize, content.size] : [0, content.size]
    const partial = message.ignorePartial ? undefined : body.partial
    const start = partial ? Math.min(to, from + partial[0]) : from
    const end = partial ? Math.min(to, start + partial[1]) : to
    await session.send(`${text}${separator}${body.echo}${partial ? `<${partial[0]}>` : ''} {${end - start}}\r\n`)
    await session.stream(content.read(start, end))
    text = ''
    separator = ' '
  }
  await session.send(`${text})\r\n`)
}

type Test = (message: HostileMessage, seq: number) => boolean

/** system flag search keys (RFC 3501 §6.4.4): the flag, and whether it must be set */
const FLAG_KEYS: Record<string, [string, boolean]> = {
  SEEN: ['\\Seen', true], UNSEEN: ['\\Seen', false], FLAGGED: ['\\Flagged', true], UNFLAGGED: ['\\Flagged', false],
  ANSWERED: ['\\Answered', true], UNANSWERED: ['\\Answered', false], DELETED: ['\\Deleted', true], UNDELETED: ['\\Deleted', false],
  DRAFT: ['\\Draft', true], UNDRAFT: ['\\Draft', false],
}

/** The search keys as tests (all must pass), or the first key this server does not know. */
function searchTests(params: ImapParam[], messages: HostileMessage[]): Test[] | string {
  const tests: Test[] = []
  for (let i = 0; i < params.length; i++) {
    const param = params[i]
    if (Array.isArray(param)) {
      const inner = searchTests(param, messages)
      if (typeof inner === 'string') return inner
      tests.push((m, seq) => inner.every((test) => test(m, seq)))
      continue
    }
    const key = param.toUpperCase()
    if (key === 'ALL') continue
    if (key === 'CHARSET') {
      i++
      continue
    }
    if (Object.hasOwn(FLAG_KEYS, key)) {
      const [flag, set] = FLAG_KEYS[key]
      tests.push((m) => (m.flags ?? []).includes(flag) === set)
      continue
    }
    if (key === 'UID' || key === 'MODSEQ') {
      const value = params[++i]
      if (typeof value !== 'string') return key
      if (key === 'MODSEQ') {
        if (!/^\d{1,19}$/.test(value)) return key
        tests.push((m) => modseqOf(m) >= Number(value))
        continue
      }
      const ranges = parseSequenceSet(value, messages[messages.length - 1]?.uid ?? 0)
      if (!ranges) return key
      tests.push((m) => inRanges(ranges, m.uid))
      continue
    }
    const ranges = parseSequenceSet(param, messages.length)
    if (!ranges) return param
    tests.push((_, seq) => inRanges(ranges, seq))
  }
  return tests
}

export async function answerSearch(command: HostileCommand, session: SessionState, messages: HostileMessage[]): Promise<void> {
  const { tag, uid } = command
  const tests = searchTests(command.params, messages)
  if (typeof tests === 'string') return session.sendLine(`${tag} BAD Unsupported search key ${tests.replace(/[^\x21-\x7e]/g, '?').slice(0, 64)}`)
  const found: number[] = []
  messages.forEach((m, i) => {
    if (tests.every((test) => test(m, i + 1))) found.push(uid ? m.uid : i + 1)
  })
  // one line, written in pieces
  await session.send('* SEARCH')
  for (let i = 0; i < found.length; i += 10_000) await session.send(` ${found.slice(i, i + 10_000).join(' ')}`)
  await session.send('\r\n')
  await session.sendLine(`${tag} OK ${uid ? 'UID ' : ''}SEARCH completed`)
}
