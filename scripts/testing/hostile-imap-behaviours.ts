// Ready-made hostile behaviours for startHostileImap: command hooks (endless LIST, huge SEARCH,
// silence), messages (a literal far bigger than its RFC822.SIZE) and folder sets (thousands of
// folders), and raw mail with bad bytes where a parser must cope. Each hook stops writing when
// its client goes, and writes with the socket's backpressure.
import type { CommandHook, HostileMessage, HostileSession } from './hostile-imap.ts'

/** LIST and LSUB answered with `* LIST` lines forever: never a tagged answer, until the client goes. */
export function endlessList(): CommandHook {
  return async (command, session) => {
    if (command.name !== 'LIST' && command.name !== 'LSUB') return false
    await session.stream(endlessListLines(command.name))
    return true
  }
}

/**
 * LIST and LSUB answered with a `* LIST` line every `pauseMs`, for ever: never silent (a socket
 * timeout never fires) and never over a byte budget, so only a deadline ends it.
 */
export function drippingList(pauseMs = 20): CommandHook {
  return async (command, session) => {
    if (command.name !== 'LIST' && command.name !== 'LSUB') return false
    for (let i = 0; !session.closed; i++) {
      await session.sendLine(`* LIST (\\HasNoChildren) "/" "Drip ${i}"`)
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
    return true
  }
}

function* endlessListLines(name: string): Generator<string> {
  for (let n = 1; ; n += 100) {
    let batch = ''
    for (let i = n; i < n + 100; i++) batch += `* ${name} (\\HasNoChildren) "/" "Endless ${i}"\r\n`
    yield batch
  }
}

/**
 * [UID] SEARCH answered with UIDs 1…count on one `* SEARCH` line (10 million is about 79 MB),
 * then OK. The sync searches only a folder whose EXISTS is above 0: give it a message.
 */
export function hugeSearch(count: number): CommandHook {
  return async (command, session) => {
    if (command.name !== 'SEARCH') return false
    await session.stream(searchLine(count))
    if (!session.closed) await session.sendLine(`${command.tag} OK SEARCH completed`)
    return true
  }
}

function* searchLine(count: number): Generator<string> {
  yield '* SEARCH'
  for (let from = 1; from <= count; from += 10_000) {
    let numbers = ''
    for (let n = from; n < Math.min(count + 1, from + 10_000); n++) numbers += ` ${n}`
    yield numbers
  }
  yield '\r\n'
}

/**
 * A message whose RFC822.SIZE says `reportedSize` (1000) while its source is `bytes` long: the
 * literal's {n} is the truth and the bytes are generated as they are sent. With `ignorePartial`
 * a partial FETCH (imapflow's download()) gets the whole message too.
 */
export function lyingLiteral(uid: number, bytes: number, options: { reportedSize?: number; ignorePartial?: boolean } = {}): HostileMessage {
  return { uid, streamBytes: bytes, reportedSize: options.reportedSize ?? 1000, ignorePartial: options.ignorePartial }
}

/**
 * Silence from the named command on ("UID FETCH" only the UID form, "FETCH" both, "SELECT", …):
 * that command and every later one on the connection get no answer, while the connection stays
 * open and the server keeps reading. `answered: true`: the named command is answered, later
 * ones are not.
 */
export function silentAfter(commandName: string, options: { answered?: boolean } = {}): CommandHook {
  const wanted = commandName.trim().toUpperCase().replace(/\s+/g, ' ')
  const silenced = new WeakSet<HostileSession>()
  return (command, session) => {
    if (silenced.has(session)) return true
    const full = `${command.uid ? 'UID ' : ''}${command.name}`
    if (full !== wanted && command.name !== wanted) return false
    silenced.add(session)
    return !options.answered
  }
}

/** INBOX (with `inbox`) and `count` empty folders "Folder 00001"…, for the folders option. */
export function manyFolders(count: number, inbox: HostileMessage[] = []): Record<string, HostileMessage[]> {
  const folders: Record<string, HostileMessage[]> = { INBOX: inbox }
  for (let i = 1; i <= count; i++) folders[`Folder ${String(i).padStart(5, '0')}`] = []
  return folders
}

export interface HostileMailParts {
  subject?: string
  fromName?: string
  fromAddress?: string
  /** with it, the message is multipart/mixed with one attachment of that file name */
  attachmentName?: string
  text?: string
  messageId?: string
}

/**
 * A message with each value written into its header as given (UTF-8, no encoding, no escaping):
 * a NUL, a CR or an unpaired surrogate goes on the wire as it is, as a broken sender writes it.
 */
export function hostileMail(parts: HostileMailParts = {}): Buffer {
  const head = [
    `From: ${parts.fromName ?? 'Hostile Sender'} <${parts.fromAddress ?? 'sender@hostile.test'}>`,
    'To: user@hostile.test',
    `Subject: ${parts.subject ?? 'Hostile message'}`,
    'Date: Thu, 01 Jan 2026 00:00:00 +0000',
    `Message-ID: ${parts.messageId ?? '<hostile@hostile.test>'}`,
    'MIME-Version: 1.0',
  ]
  const text = parts.text ?? 'Hostile body.'
  if (parts.attachmentName === undefined) return Buffer.from([...head, 'Content-Type: text/plain; charset=utf-8', '', text, ''].join('\r\n'))
  const boundary = 'hostile-boundary'
  return Buffer.from([
    ...head, `Content-Type: multipart/mixed; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/plain; charset=utf-8', '', text,
    `--${boundary}`, `Content-Type: application/octet-stream; name="${parts.attachmentName}"`,
    `Content-Disposition: attachment; filename="${parts.attachmentName}"`, 'Content-Transfer-Encoding: base64', '',
    Buffer.from('attachment content').toString('base64'),
    `--${boundary}--`, '',
  ].join('\r\n'))
}
