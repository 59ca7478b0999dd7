// One line per event, as JSON or logfmt (LOG_FORMAT): time, level, process, event, ids, duration.
// Never a body, subject, address or secret: callers pass ids and counts only.
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
type Level = Exclude<keyof typeof levels, 'silent'>
export type LogFormat = 'json' | 'logfmt'

let threshold: number = levels[(process.env.LOG_LEVEL as keyof typeof levels) ?? 'info'] ?? levels.info
let format: LogFormat = process.env.LOG_FORMAT === 'logfmt' ? 'logfmt' : 'json'
let processName = process.env.VEILMAIL_PROCESS ?? 'veilmail'

export function setLogProcess(name: string) {
  processName = name
}

export function setLogLevel(level: keyof typeof levels) {
  threshold = levels[level]
}

export function setLogFormat(value: LogFormat) {
  format = value
}

export type Fields = Record<string, string | number | boolean | null | undefined>
type Listener = (level: Level, event: string, fields: Fields) => void
const listeners: Listener[] = []

/** Every event, whatever LOG_LEVEL: metrics are counted from the events the code already logs. Returns the unsubscribe. */
export function onLogEvent(listener: Listener): () => void {
  listeners.push(listener)
  return () => {
    const at = listeners.indexOf(listener)
    if (at >= 0) listeners.splice(at, 1)
  }
}

// logfmt (https://brandur.org/logfmt): key=value, values quoted when they hold spaces, quotes or '='.
function logfmtValue(value: string | number | boolean | null): string {
  const text = String(value)
  return text === '' || /[\s"=\\]/.test(text) ? JSON.stringify(text) : text
}

export function formatLine(fmt: LogFormat, record: Fields): string {
  if (fmt === 'json') return JSON.stringify(record)
  return Object.entries(record)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${logfmtValue(value as string | number | boolean | null)}`)
    .join(' ')
}

/**
 * Lines go out once per turn of the event loop, each stream's in one write: the delivery logs a
 * line per forward, and a batch finishing together was a write to a pipe each, every one a system
 * call and a wake-up of the reader (`npm start`'s supervisor). Lines still held when the process
 * exits, an uncaught error's exit included, are written then (stdout and stderr are synchronous
 * on Linux pipes, files and terminals).
 */
const held = { out: '', err: '' }
let flushing: NodeJS.Immediate | undefined

function flush() {
  flushing = undefined
  const { out, err } = held
  held.out = held.err = ''
  if (out) process.stdout.write(out)
  if (err) process.stderr.write(err)
}
process.on('exit', flush)

function write(level: Level, event: string, fields: Fields = {}) {
  for (const listener of listeners) listener(level, event, fields)
  if (levels[level] < threshold) return
  const line = formatLine(format, { t: new Date().toISOString(), level, process: processName, event, ...fields })
  if (level === 'error' || level === 'warn') held.err += line + '\n'
  else held.out += line + '\n'
  flushing ??= setImmediate(flush)
}

/** An error's class and code only: messages can quote input (addresses, headers). */
export function errorFields(error: unknown): Fields {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return { error: error.name, code: typeof code === 'string' || typeof code === 'number' ? code : undefined }
  }
  return { error: typeof error }
}

export const log = {
  debug: (event: string, fields?: Fields) => write('debug', event, fields),
  info: (event: string, fields?: Fields) => write('info', event, fields),
  warn: (event: string, fields?: Fields) => write('warn', event, fields),
  error: (event: string, fields?: Fields) => write('error', event, fields),
}
