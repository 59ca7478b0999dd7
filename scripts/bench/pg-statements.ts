// Where a benchmark's Postgres time goes (BENCH_PG_STATEMENTS=1, scripts/bench/bench-db.ts): the
// statements by total execution time per message, their calls per message, and the WAL written
// per message (pg_stat_wal, with the full-page images that follow a checkpoint counted apart).
import type { Sql } from '../../db/client.ts'
import { printTable } from '../print-table.ts'
import { cpuMs } from './process-cpu.ts'

interface Wal { records: number; fpi: number; bytes: number }

export interface PgStatements {
  /** clears the counters before a measured run */
  reset(): Promise<void>
  /** prints the top statements and the WAL per message since `reset` */
  report(title: string, messages: number): Promise<void>
}

export async function pgStatements(sql: Sql): Promise<PgStatements> {
  await sql`create extension if not exists pg_stat_statements`
  const wal = async (): Promise<Wal> => {
    const [row] = await sql<Wal[]>`select wal_records::float8 as records, wal_fpi::float8 as fpi, wal_bytes::float8 as bytes from pg_stat_wal`
    return row
  }
  // CPU by kind of server process: backends by application_name (veilmail-queue is pg-boss),
  // the others by backend_type (walwriter, checkpointer, autovacuum worker, …)
  const cpuByKind = async (): Promise<Map<number, { kind: string; ms: number }>> => {
    const rows = await sql<{ pid: number; kind: string }[]>`
      select pid, case when backend_type = 'client backend' then 'backend ' || coalesce(nullif(application_name, ''), '?') else backend_type end as kind from pg_stat_activity`
    return new Map(rows.map((r) => [r.pid, { kind: r.kind, ms: cpuMs(r.pid) }]))
  }
  // table activity: sequential scans of hot tables and non-HOT updates (each one an entry in every index) show here
  type TableStats = { table: string; seqScan: number; seqRead: number; idxScan: number; ins: number; upd: number; hot: number; del: number }
  const tables = async () => new Map((await sql<TableStats[]>`
    select schemaname || '.' || relname as table, coalesce(seq_scan, 0)::float8 as seq_scan, coalesce(seq_tup_read, 0)::float8 as seq_read, coalesce(idx_scan, 0)::float8 as idx_scan,
      n_tup_ins::float8 as ins, n_tup_upd::float8 as upd, n_tup_hot_upd::float8 as hot, n_tup_del::float8 as del
    from pg_stat_all_tables where schemaname in ('public', 'pgboss') or schemaname like 'pg_toast%'`).map((t) => [t.table, t]))
  const indexes = async () => new Map((await sql<{ index: string; scans: number }[]>`
    select schemaname || '.' || relname || '.' || indexrelname as index, idx_scan::float8 as scans from pg_stat_all_indexes where schemaname in ('public', 'pgboss')`).map((i) => [i.index, i.scans]))
  let tablesBefore = await tables()
  let indexesBefore = await indexes()
  let walBefore: Wal = await wal()
  let cpuBefore = await cpuByKind()
  return {
    async reset() {
      await sql`select pg_stat_statements_reset()`
      walBefore = await wal()
      // the statistics collector's counters lag a little: a second's flush is enough for a bench
      tablesBefore = await tables()
      indexesBefore = await indexes()
      cpuBefore = await cpuByKind()
    },
    async report(title, messages) {
      const walAfter = await wal()
      const kinds = new Map<string, number>()
      for (const [pid, { kind, ms }] of await cpuByKind()) kinds.set(kind, (kinds.get(kind) ?? 0) + ms - (cpuBefore.get(pid)?.ms ?? 0))
      const rows = await sql<{ query: string; calls: number; total: number; plan: number; rows: number; blocks: number; walBytes: number }[]>`
        select regexp_replace(query, '\\s+', ' ', 'g') as query, calls::float8 as calls, total_exec_time::float8 as total, total_plan_time::float8 as plan, rows::float8 as rows, (shared_blks_hit + shared_blks_read)::float8 as blocks, wal_bytes::float8 as wal_bytes
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
        order by total_exec_time + total_plan_time desc limit ${Number(process.env.BENCH_PG_STATEMENTS_TOP ?? 15)}`
      const [all] = await sql<{ total: number; calls: number; jit: number }[]>`
        select coalesce(sum(total_exec_time + total_plan_time), 0)::float8 as total, coalesce(sum(calls), 0)::float8 as calls, coalesce(sum(jit_functions), 0)::float8 as jit from pg_stat_statements`
      console.log(`\nPostgres, ${title}: ${(all.total / messages).toFixed(2)} ms of statement time (planning and execution) and ${(all.calls / messages).toFixed(1)} statements per message; ` +
        `WAL ${((walAfter.bytes - walBefore.bytes) / messages / 1024).toFixed(1)} KB, ${((walAfter.records - walBefore.records) / messages).toFixed(1)} records and ${((walAfter.fpi - walBefore.fpi) / messages).toFixed(2)} full-page images per message; ${all.jit} functions JIT-compiled`)
      console.log('CPU per message by server process (those alive at both ends): ' +
        [...kinds].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms > 0).map(([kind, ms]) => `${kind} ${(ms / messages).toFixed(2)} ms`).join(', '))
      await new Promise((r) => setTimeout(r, 1500)) // statistics are flushed at most once a second
      const tablesAfter = await tables()
      const per = (n: number) => (n / messages).toFixed(2)
      printTable([...tablesAfter.values()].flatMap((t) => {
        const b = tablesBefore.get(t.table) ?? { seqScan: 0, seqRead: 0, idxScan: 0, ins: 0, upd: 0, hot: 0, del: 0 }
        const d = { seqScan: t.seqScan - b.seqScan, seqRead: t.seqRead - b.seqRead, idxScan: t.idxScan - b.idxScan, ins: t.ins - b.ins, upd: t.upd - b.upd, hot: t.hot - b.hot, del: t.del - b.del }
        if (d.ins + d.upd + d.del + d.seqScan + d.idxScan === 0) return []
        return [{ table: t.table, 'seq scans/msg': per(d.seqScan), 'seq rows read/msg': per(d.seqRead), 'index scans/msg': per(d.idxScan), 'inserts/msg': per(d.ins), 'updates/msg': per(d.upd), 'HOT updates/msg': per(d.hot), 'deletes/msg': per(d.del) }]
      }))
      const indexesAfter = await indexes()
      const unused = [...indexesAfter].filter(([name, scans]) => scans === (indexesBefore.get(name) ?? 0)).map(([name]) => name)
      const hot = new Set([...tablesAfter.values()].filter((t) => t.ins + t.upd - (tablesBefore.get(t.table)?.ins ?? 0) - (tablesBefore.get(t.table)?.upd ?? 0) > messages / 2).map((t) => t.table))
      console.log(`indexes of tables written at least once per two messages that no statement used: ${unused.filter((i) => hot.has(i.split('.').slice(0, 2).join('.'))).join(', ') || 'none'}`)
      printTable(rows.map((r) => ({
        'ms/msg': (r.total / messages).toFixed(3), 'planning ms/msg': (r.plan / messages).toFixed(3), 'calls/msg': (r.calls / messages).toFixed(2), 'rows/call': (r.rows / Math.max(1, r.calls)).toFixed(1), 'pages/call': (r.blocks / Math.max(1, r.calls)).toFixed(0),
        'WAL B/msg': (r.walBytes / messages).toFixed(0), statement: r.query.slice(0, 140),
      })))
    },
  }
}
