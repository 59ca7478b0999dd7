// The hostile IMAP server's built-in answers, for when a test's hooks leave a command alone:
// what a plain IMAP4rev1 server (RFC 3501) with the few extensions imapflow uses would say.
import type { HostileCommand, HostileMessage, HostileSession } from './hostile-imap.ts'
import { messageContent, modseqOf } from './hostile-imap-content.ts'
import { answerFetch, answerSearch } from './hostile-imap-fetch.ts'
import { fromModifiedUtf7, mailboxName, type ImapParam } from './hostile-imap-wire.ts'

/** A session as the built-in commands see it. */
export interface SessionState extends HostileSession {
  secure: boolean
  readOnly: boolean
  /** ENABLEd extensions (RFC 5161) */
  enabled: Set<string>
  /** the tag of the IDLE in progress: the next line ends it */
  idleTag?: string
  startTls(): void
  end(): void
}

export interface MailState {
  folders: Map<string, HostileMessage[]>
  users: Record<string, string>
  uidValidity: number
  capabilities(session: SessionState): string[]
}

const DELIMITER = '/'
const SYSTEM_FLAGS = ['\\Answered', '\\Flagged', '\\Deleted', '\\Seen', '\\Draft']
/** extensions ENABLE can turn on here, when they are offered */
const ENABLEABLE = ['CONDSTORE', 'QRESYNC', 'UTF8=ACCEPT']

export async function answerCommand(command: HostileCommand, session: SessionState, mail: MailState): Promise<void> {
  const { tag, name, params } = command
  const ok = (text = `${name} completed`) => session.sendLine(`${tag} OK ${text}`)
  const bad = (text: string) => session.sendLine(`${tag} BAD ${text}`)
  switch (name) {
    case 'CAPABILITY':
      await session.sendLine(`* CAPABILITY ${mail.capabilities(session).join(' ')}`)
      return ok()
    case 'NOOP':
    case 'CHECK':
      return ok()
    case 'LOGOUT':
      await session.sendLine('* BYE Logging out')
      await ok()
      return session.end()
    case 'STARTTLS':
      if (session.secure || !mail.capabilities(session).includes('STARTTLS')) return bad('STARTTLS not offered')
      await ok('Begin TLS negotiation now')
      return session.startTls()
    case 'LOGIN': {
      if (mail.capabilities(session).includes('LOGINDISABLED')) return session.sendLine(`${tag} NO [PRIVACYREQUIRED] STARTTLS first`)
      const [user, password] = params
      if (typeof user !== 'string' || typeof password !== 'string') return bad('LOGIN needs a user and a password')
      if (!Object.hasOwn(mail.users, user) || mail.users[user] !== password) return session.sendLine(`${tag} NO [AUTHENTICATIONFAILED] Authentication failed`)
      session.user = user
      return ok('Logged in')
    }
    case 'ID':
      await session.sendLine('* ID ("name" "hostile-imap" "vendor" "Veilmail tests")')
      return ok()
  }
  if (!session.user) return bad(`${name} is not valid before LOGIN`)
  const utf8 = session.enabled.has('UTF8=ACCEPT')
  /** the folder a name argument means (modified UTF-7 decoded, INBOX in any case) */
  const folder = (param: ImapParam | undefined) => {
    if (typeof param !== 'string') return undefined
    const wanted = utf8 ? param : fromModifiedUtf7(param)
    const key = wanted.toUpperCase() === 'INBOX' ? [...mail.folders.keys()].find((f) => f.toUpperCase() === 'INBOX') : wanted
    return key !== undefined && mail.folders.has(key) ? { name: key, messages: mail.folders.get(key)! } : undefined
  }
  const condstore = mail.capabilities(session).some((c) => c === 'CONDSTORE' || c === 'QRESYNC')
  switch (name) {
    case 'ENABLE': {
      const offered = mail.capabilities(session)
      const granted = params.filter((p): p is string => typeof p === 'string').map((p) => p.toUpperCase()).filter((p) => ENABLEABLE.includes(p) && offered.includes(p))
      for (const extension of granted) session.enabled.add(extension)
      await session.sendLine(`* ENABLED${granted.map((g) => ` ${g}`).join('')}`)
      return ok()
    }
    case 'NAMESPACE':
      await session.sendLine(`* NAMESPACE (("" "${DELIMITER}")) NIL NIL`)
      return ok()
    case 'LIST':
    case 'LSUB':
      return answerList(command, session, mail, utf8, condstore)
    case 'STATUS': {
      const found = folder(params[0])
      if (!found) return session.sendLine(`${tag} NO [NONEXISTENT] Unknown mailbox`)
      const items = statusItems(params[1], found.messages, mail, condstore)
      if (items === undefined) return bad('Unknown STATUS item')
      await session.sendLine(`* STATUS ${mailboxName(found.name, utf8)} (${items})`)
      return ok()
    }
    case 'SELECT':
    case 'EXAMINE': {
      const found = folder(params[0])
      // RFC 7162 §3.2.11: with QRESYNC on, leaving a selected mailbox is announced
      if (session.selected !== undefined && session.enabled.has('QRESYNC')) await session.sendLine('* OK [CLOSED] Previous mailbox closed')
      session.selected = undefined
      if (!found) return session.sendLine(`${tag} NO [NONEXISTENT] Unknown mailbox`)
      const messages = found.messages
      const keywords = [...new Set(messages.flatMap((m) => m.flags ?? []).filter((f) => !SYSTEM_FLAGS.includes(f)))]
      await session.sendLine(`* FLAGS (${[...SYSTEM_FLAGS, ...keywords].join(' ')})`)
      await session.sendLine(`* OK [PERMANENTFLAGS (${name === 'SELECT' ? [...SYSTEM_FLAGS, '\\*'].join(' ') : ''})] Flags permitted`)
      await session.sendLine(`* ${messages.length} EXISTS`)
      await session.sendLine('* 0 RECENT')
      await session.sendLine(`* OK [UIDVALIDITY ${mail.uidValidity}] UIDs valid`)
      await session.sendLine(`* OK [UIDNEXT ${uidNext(messages)}] Predicted next UID`)
      if (condstore) await session.sendLine(`* OK [HIGHESTMODSEQ ${highestModseq(messages)}] Highest`)
      session.selected = found.name
      session.readOnly = name === 'EXAMINE'
      return ok(`[${session.readOnly ? 'READ-ONLY' : 'READ-WRITE'}] ${name} completed`)
    }
    case 'IDLE':
      // RFC 2177: "+" now, the tagged OK once the client says DONE (see the session)
      session.idleTag = tag
      return session.sendLine('+ idling')
  }
  const selected = session.selected === undefined ? undefined : mail.folders.get(session.selected)
  if (!selected) return bad(`${name} needs a selected mailbox or is not supported by the hostile server`)
  switch (name) {
    case 'CLOSE':
    case 'UNSELECT':
      session.selected = undefined
      return ok()
    case 'FETCH':
      return answerFetch(command, session, selected, condstore)
    case 'SEARCH':
      return answerSearch(command, session, selected)
  }
  return bad(`${name} is not supported by the hostile server`)
}

/** LIST and LSUB (RFC 3501 §6.3.8-9), with the LIST-EXTENDED forms imapflow sends (RFC 5258, RFC 5819). */
async function answerList(command: HostileCommand, session: SessionState, mail: MailState, utf8: boolean, condstore: boolean) {
  const { tag, name } = command
  // LIST (SUBSCRIBED …) "" "*": selection options first
  const selection = Array.isArray(command.params[0]) ? command.params[0] : []
  const args = Array.isArray(command.params[0]) ? command.params.slice(1) : command.params
  const [reference, patterns, returnWord, returnOptions] = args
  if (typeof reference !== 'string' || patterns === undefined) return session.sendLine(`${tag} BAD ${name} needs a reference and a pattern`)
  const options = typeof returnWord === 'string' && returnWord.toUpperCase() === 'RETURN' && Array.isArray(returnOptions) ? returnOptions : []
  const upper = (list: ImapParam[]) => list.filter((o): o is string => typeof o === 'string').map((o) => o.toUpperCase())
  const subscribed = upper(options).includes('SUBSCRIBED') || upper(selection).includes('SUBSCRIBED')
  const statusAt = upper(options).indexOf('STATUS')
  const statusQuery = statusAt >= 0 ? options[statusAt + 1] : undefined
  const list = (Array.isArray(patterns) ? patterns : [patterns]).filter((p): p is string => typeof p === 'string')
  if (list.length === 1 && list[0] === '') {
    // RFC 3501 §6.3.8: an empty pattern asks for the hierarchy delimiter
    await session.sendLine(`* ${name} (\\Noselect) "${DELIMITER}" ""`)
    return session.sendLine(`${tag} OK ${name} completed`)
  }
  const matchers = list.map((p) => patternMatcher(reference + (utf8 ? p : fromModifiedUtf7(p))))
  const names = [...mail.folders.keys()]
  for (const folder of names) {
    if (session.closed) return
    if (!matchers.some((m) => m.test(folder))) continue
    const children = names.some((other) => other.startsWith(folder + DELIMITER))
    const attributes = [children ? '\\HasChildren' : '\\HasNoChildren', ...(subscribed && name === 'LIST' ? ['\\Subscribed'] : [])]
    await session.sendLine(`* ${name} (${attributes.join(' ')}) "${DELIMITER}" ${mailboxName(folder, utf8)}`)
    if (statusQuery !== undefined && name === 'LIST') {
      const items = statusItems(statusQuery, mail.folders.get(folder)!, mail, condstore)
      if (items !== undefined) await session.sendLine(`* STATUS ${mailboxName(folder, utf8)} (${items})`)
    }
  }
  return session.sendLine(`${tag} OK ${name} completed`)
}

/** RFC 3501 §6.3.8: `*` matches anything, `%` anything but the delimiter; INBOX in any case. */
function patternMatcher(pattern: string): { test(name: string): boolean } {
  const source = [...pattern].map((c) => (c === '*' ? '.*' : c === '%' ? `[^${DELIMITER}]*` : c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))).join('')
  const regex = new RegExp(`^${source}$`, 's')
  return { test: (name) => regex.test(name) || (name.toUpperCase() === 'INBOX' && regex.test('INBOX')) }
}

const uidNext = (messages: HostileMessage[]) => (messages.length ? messages[messages.length - 1].uid + 1 : 1)
const highestModseq = (messages: HostileMessage[]) => Math.max(1, ...messages.map(modseqOf))

/** The STATUS data items asked for (RFC 3501 §6.3.10, RFC 7162 HIGHESTMODSEQ); undefined for one unknown. */
function statusItems(query: ImapParam | undefined, messages: HostileMessage[], mail: MailState, condstore: boolean): string | undefined {
  const asked = (Array.isArray(query) ? query : [query]).map((item) => (typeof item === 'string' ? item.toUpperCase() : ''))
  const values: Record<string, () => number | undefined> = {
    MESSAGES: () => messages.length,
    RECENT: () => 0,
    UIDNEXT: () => uidNext(messages),
    UIDVALIDITY: () => mail.uidValidity,
    UNSEEN: () => messages.filter((m) => !m.flags?.includes('\\Seen')).length,
    DELETED: () => messages.filter((m) => m.flags?.includes('\\Deleted')).length,
    SIZE: () => messages.reduce((sum, m) => sum + messageContent(m).size, 0),
    HIGHESTMODSEQ: () => (condstore ? highestModseq(messages) : undefined),
  }
  const out: string[] = []
  for (const item of asked) {
    const value = Object.hasOwn(values, item) ? values[item]() : undefined
    if (value === undefined) return undefined
    out.push(`${item} ${value}`)
  }
  return out.join(' ')
}
