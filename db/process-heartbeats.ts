// process_heartbeats: which processes are running, from the beats they write.
import type { Db } from './client.ts'

export interface ProcessHealth {
  process: string
  alive: boolean
  /** running copies whose last beat is fresh */
  instances: number
  lastBeatAt: Date | null
}

export async function recordHeartbeat(db: Db, process: string, instance: string): Promise<void> {
  await db`
    insert into process_heartbeats (process, instance) values (${process}, ${instance})
    on conflict (process, instance) do update set beat_at = now()`
}

export async function removeHeartbeat(db: Db, process: string, instance: string): Promise<void> {
  await db`delete from process_heartbeats where process = ${process} and instance = ${instance}`
}

/**
 * Which of `processes` beat at or after `since` (read from the database's own clock): copies that
 * started since then, not a fresh-looking row a killed copy left behind.
 */
export async function processesBeatingSince(db: Db, processes: readonly string[], since: Date): Promise<string[]> {
  const rows = await db<{ process: string }[]>`
    select distinct process from process_heartbeats where process = any(${processes}::text[]) and beat_at >= ${since}`
  return rows.map((r) => r.process)
}

/** Each of `processes` as alive (a beat within `staleSeconds`) or not, in the order given. */
export async function listProcessHealth(db: Db, processes: readonly string[], staleSeconds: number): Promise<ProcessHealth[]> {
  return db<ProcessHealth[]>`
    select p.name as process,
           count(h.instance) filter (where h.beat_at > now() - make_interval(secs => ${staleSeconds})) > 0 as alive,
           (count(h.instance) filter (where h.beat_at > now() - make_interval(secs => ${staleSeconds})))::int as instances,
           max(h.beat_at) as last_beat_at
    from unnest(${processes}::text[]) with ordinality as p(name, i)
    left join process_heartbeats h on h.process = p.name
    group by p.name, p.i order by p.i`
}
