// What the cluster tests (MX_PROCESSES, DELIVERY_PROCESSES) read of the processes a primary forked.
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
