// Watching folders beyond the one an IDLE connection has selected (issue 13): IDLE reports only
// the selected mailbox (RFC 2177), so the other enabled folders are followed with NOTIFY
// (RFC 5465) where the server offers it: the server then announces new mail, expunges and flag
// changes in them as untagged STATUS responses (§5.2, §5.3). imapflow has no NOTIFY command;
// it is sent through the client's command queue and the STATUS lines are read by an untagged
// handler. Where the server (or this imapflow) lacks either, the caller polls STATUS instead.
//
// The filter is PERSONAL, and the folders followed are picked from its announcements here: the
// set can change (the user turns a folder on) without a new NOTIFY SET, and Dovecot 2.3 neither
// matches a MAILBOXES name outside ASCII nor announces anything after a second NOTIFY SET.
import type { ImapFlow, StatusObject } from 'imapflow'
import { decodePath } from 'imapflow/lib/tools.js'

/** The parts of imapflow's connection NOTIFY needs; not in its typings, so checked before use. */
interface ImapInternals {
  exec?: (command: string, attributes: unknown[], options?: object) => Promise<{ next?: () => void }>
  untaggedHandlers?: Record<string, ((untagged: { attributes?: unknown[] }) => unknown) | null | undefined>
}

const EVENTS = ['MessageNew', 'MessageExpunge', 'FlagChange'].map((value) => ({ type: 'ATOM', value }))

/**
 * A mailbox name of an untagged response: an atom, a quoted string (modified UTF-7 unless UTF8=ACCEPT,
 * RFC 3501 §5.1.3, decoded as imapflow decodes its own paths), or a literal (Dovecot sends UTF-8 names so).
 */
function mailboxName(client: ImapFlow, attribute: unknown): string | undefined {
  const value = (attribute as { value?: unknown } | undefined)?.value
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  return typeof value === 'string' ? decodePath(client, value) : undefined
}

/**
 * Asks the server to announce changes in the user's own folders (and, as before, in the selected
 * mailbox), and calls `onChange` for those of them `followed()` names at that moment. False when
 * NOTIFY is not available: then nothing was sent and the caller polls. Must be called while the
 * connection is not in IDLE.
 */
export async function notifyFolders(client: ImapFlow, followed: () => string[], onChange: (path: string) => void): Promise<boolean> {
  const internals = client as unknown as ImapInternals
  if (!client.capabilities.has('NOTIFY') || typeof internals.exec !== 'function' || typeof internals.untaggedHandlers !== 'object') return false
  // RFC 5465 §5.2/§5.3: a change in a non-selected mailbox comes as "* STATUS <mailbox> (…)"
  internals.untaggedHandlers.STATUS = (untagged) => {
    const path = mailboxName(client, untagged.attributes?.[0])
    if (path !== undefined && followed().includes(path)) onChange(path)
  }
  // RFC 5465 §6: NOTIFY SET (SELECTED (events)) (PERSONAL (events)); FlagChange needs
  // MessageNew and MessageExpunge beside it (§5.3)
  const response = await internals.exec('NOTIFY', [{ type: 'ATOM', value: 'SET' },
    [{ type: 'ATOM', value: 'SELECTED' }, EVENTS], [{ type: 'ATOM', value: 'PERSONAL' }, EVENTS]])
  // the response holds back the connection's reader until released
  response.next?.()
  return true
}

/** What STATUS tells of a folder a poll compares with the last one: anything new, gone or changed. */
export async function folderStatus(client: ImapFlow, path: string): Promise<string> {
  const status: StatusObject | false = await client.status(path, {
    messages: true, uidNext: true, uidValidity: true, unseen: true, highestModseq: client.enabled.has('CONDSTORE'),
  })
  if (!status) return ''
  return JSON.stringify([status.messages, status.uidNext, status.uidValidity?.toString(), status.unseen, status.highestModseq?.toString()])
}
