// One Veilmail per DATA_DIR: `npm start` holds DATA_DIR/veilmail.pid while it runs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { isAlive } from '../lib/process-alive.ts'

const lockFile = (dataDir: string) => path.join(dataDir, 'veilmail.pid')

/** The pid of the live `npm start` holding DATA_DIR, if any. */
export function lockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile(dataDir), 'utf8').trim())
    if (pid > 0 && pid !== process.pid && isAlive(pid)) return pid
  } catch {}
  return undefined
}

export class DataDirBusyError extends Error {}

export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true })
  const file = lockFile(dataDir)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => rmSync(file, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = lockHolder(dataDir)
      if (holder) throw new DataDirBusyError(`Veilmail is already running on ${dataDir} (pid ${holder}). Stop it first, or set DATA_DIR to another folder.`)
      rmSync(file, { force: true }) // left by a process that died
    }
  }
  throw new DataDirBusyError(`Could not lock ${dataDir}`)
}
