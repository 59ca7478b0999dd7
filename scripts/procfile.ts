// The Procfile: one line per process of the service, `name: command`. Read by `npm start` to run
// them and by the benchmarks to measure a process as it is deployed (its Node options included).
// A command may start with `nice -n N` (as a Procfile runner that passes it to a shell runs it):
// the process then runs N steps below the runner's CPU priority (nice(1)), and `argv` is the
// command after it.
import { readFileSync } from 'node:fs'
import path from 'node:path'

/** `nice`: how far below the runner's priority the process runs, 0 unless the line starts with `nice -n N`. */
export interface ProcessLine { name: string; argv: string[]; nice: number }

export function readProcfile(file = path.join(import.meta.dirname, '..', 'Procfile')): ProcessLine[] {
  return readFileSync(file, 'utf8').split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const i = l.indexOf(':')
      const name = l.slice(0, i).trim()
      const argv = l.slice(i + 1).trim().split(/\s+/)
      if (argv[0] !== 'nice') return { name, argv, nice: 0 }
      const nice = Number(argv[2])
      if (argv[1] !== '-n' || !Number.isInteger(nice) || nice < 0 || nice > 19) throw new Error(`Procfile, ${name}: write a lower priority as "nice -n N" with N from 0 to 19`)
      return { name, argv: argv.slice(3), nice }
    })
}
