// What the cluster tests (MX_PROCESSES, DELIVERY_PROCESSES) read of the processes a primary forked.
import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { Sql } from '../../db/client.ts'

/** The pids of a process kind that beat in the last 15 s, from their heartbeats (one row per process). */
export async function heartbeatPids(sql: Sql, processName: string): Promise<number[]> {
  const rows = await sql<{ instance: string }[]>`select instance from process_heartbeats where process = ${processName} and beat_at > now() - interval '15 seconds'`
  return rows.map((r) => Number(r.instance.split(':').pop())).sort()
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Resolves once the primary logs `event` (every forked process is ready), rejects if it exits first. */
export function untilLogged(primary: ChildProcess, event: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    createInterface({ input: primary.stdout! }).on('line', (line) => line.includes(`"event":"${event}"`) && resolve())
    primary.once('exit', (code) => reject(new Error(`the primary exited (${code}) before it logged ${event}`)))
  })
}

/** Kills a primary still running and the processes it forked (`pids`, read before: they outlive a killed primary). */
export async function killCluster(primary: ChildProcess | undefined, pids: () => Promise<number[]>): Promise<void> {
  if (!primary || primary.exitCode !== null || primary.signalCode !== null) return
  const forked = await pids().catch(() => [])
  primary.kill('SIGKILL')
  for (const pid of forked) if (alive(pid)) process.kill(pid, 'SIGKILL')
}
