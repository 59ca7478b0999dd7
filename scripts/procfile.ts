// The Procfile: one line per process of the service, `name: command`. Read by `npm start` to run
// them and by the benchmarks to measure a process as it is deployed (its Node options included).
import { readFileSync } from 'node:fs'
import path from 'node:path'

export interface ProcessLine { name: string; argv: string[] }

export function readProcfile(file = path.join(import.meta.dirname, '..', 'Procfile')): ProcessLine[] {
  return readFileSync(file, 'utf8').split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const i = l.indexOf(':')
      return { name: l.slice(0, i).trim(), argv: l.slice(i + 1).trim().split(/\s+/) }
    })
}
