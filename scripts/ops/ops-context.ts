// What every `npm run ops` command gets: the database (through the same db/ and queue modules
// the workers use), output helpers that honour --json, and progress that shows only on a TTY.
import type { PgBoss } from 'pg-boss'
import type { Sql } from '../../db/client.ts'
import { printTable } from '../print-table.ts'

export class UsageError extends Error {}
/** The command ran but did not do what was asked (a job not found, a requeue refused): exit 1. */
export class CommandFailed extends Error {}

export interface OpsContext {
  sql: Sql
  /** pg-boss, started on first use (requeue, cancel, finding a job's queue entries) */
  boss(): Promise<PgBoss>
  json: boolean
  /** a line of text output (not printed under --json) */
  line(text: string): void
  table(rows: Record<string, string | number>[]): void
  /** the command's result under --json */
  result(value: unknown): void
  /** "label done/total" on a TTY, rewritten in place; nothing when piped */
  progress(label: string, done: number, total: number): void
}

export function outputs(json: boolean, write: (s: string) => void = (s) => process.stdout.write(s)) {
  const tty = Boolean(process.stderr.isTTY) && !json
  return {
    json,
    line: (text: string) => { if (!json) write(text + '\n') },
    table: (rows: Record<string, string | number>[]) => { if (!json) printTable(rows, (l) => write(l + '\n')) },
    result: (value: unknown) => { if (json) write(JSON.stringify(value, null, 2) + '\n') },
    progress: (label: string, done: number, total: number) => {
      if (!tty) return
      process.stderr.write(`\r${label} ${done}/${total}${done >= total ? '\n' : ''}`)
    },
  }
}

/** An error text on one line with e-mail addresses masked: relay replies can quote them. */
export function oneLine(text: string | null | undefined): string {
  if (!text) return ''
  return text.replace(/\s+/g, ' ').replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '<address>').trim().slice(0, 160)
}

/** A duration in seconds for a table cell: 42s, 7m, 3h, 2d. */
export function age(seconds: number | null): string {
  if (seconds === null) return '-'
  const s = Math.max(0, Math.round(seconds))
  if (s < 120) return `${s}s`
  if (s < 7200) return `${Math.round(s / 60)}m`
  if (s < 172800) return `${Math.round(s / 3600)}h`
  return `${Math.round(s / 86400)}d`
}

export const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : '-')

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export function uuids(values: string[], what: string): string[] {
  if (values.length === 0) throw new UsageError(`give at least one ${what} id`)
  for (const value of values) if (!UUID.test(value)) throw new UsageError(`not a ${what} id: ${value}`)
  return values
}
