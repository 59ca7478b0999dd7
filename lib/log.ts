// One structured JSON line per event: level, process, ids, duration. Never a body, subject,
// address or secret: callers pass ids and counts only.
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
type Level = Exclude<keyof typeof levels, 'silent'>

let threshold: number = levels[(process.env.LOG_LEVEL as keyof typeof levels) ?? 'info'] ?? levels.info
let processName = process.env.VEILMAIL_PROCESS ?? 'veilmail'

export function setLogProcess(name: string) {
  processName = name
}

export function setLogLevel(level: keyof typeof levels) {
  threshold = levels[level]
}

type Fields = Record<string, string | number | boolean | null | undefined>

function write(level: Level, event: string, fields: Fields = {}) {
  if (levels[level] < threshold) return
  const line = JSON.stringify({ t: new Date().toISOString(), level, process: processName, event, ...fields })
  ;(level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n')
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
