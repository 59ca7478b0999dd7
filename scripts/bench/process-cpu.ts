// CPU time of benchmarked processes from /proc (Linux): the figure a shared machine does not blur
// — wall-clock rates move with other load, the CPU a process spends per message does not (much).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
/** Clock ticks of /proc/pid/stat in milliseconds. */
export const ticksMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS

/** /proc/pid/stat after the command name: [state, ppid, …]; utime, stime, cutime, cstime at 11–14 (clock ticks). */
export function procStat(pid: number | string): { comm: string; fields: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') }
  } catch {
    return undefined // gone meanwhile
  }
}

/** CPU milliseconds of a process's own threads, and with `reaped` those of the children it reaped; 0 once it is gone. */
export function cpuMs(pid: number | string, reaped = false): number {
  const f = procStat(pid)?.fields
  if (!f) return 0
  return ticksMs(Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0))
}

/**
 * CPU milliseconds of a process's main thread alone (its JavaScript thread; not libuv's pool, where
 * Node runs async zlib and crypto, nor V8's helper threads): the critical path of a Node process.
 */
export function mainThreadCpuMs(pid: number): number {
  const f = procStat(`${pid}/task/${pid}`)?.fields
  return f ? ticksMs(Number(f[11]) + Number(f[12])) : 0
}

/** The pids a process forked that are alive. */
export function forkedPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** A process's CPU and its children's, the live ones and those that exited (Postgres: the postmaster and its backends). */
export function treeCpuMs(pid: number): number {
  return cpuMs(pid, true) + forkedPids(pid).reduce((sum, child) => sum + cpuMs(child), 0)
}

/** The machine's busy and total CPU ticks so far, from /proc/stat's cpu line. */
function machineTicks(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/)
  const ticks = values.map(Number)
  const idle = ticks[3] + (ticks[4] ?? 0) // idle and iowait
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0) // without guest time, already in user
  return { busy: total - idle, total }
}

/**
 * Waits until the machine has been quiet (busy under `busyFraction` of its CPUs) for a whole
 * `windowMs`, at most `limitMs`; returns how long it waited. What the previous measurement left
 * running (a stopped server's last processes, a vacuum) is then not measured with the next.
 */
export async function settle({ busyFraction = 0.1, windowMs = 500, limitMs = 15_000 } = {}): Promise<number> {
  const started = performance.now()
  let last = machineTicks()
  while (performance.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs))
    const now = machineTicks()
    const quiet = (now.busy - last.busy) / Math.max(1, now.total - last.total) < busyFraction
    last = now
    if (quiet) break
  }
  return performance.now() - started
}
