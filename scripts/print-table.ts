/** Prints rows as an aligned text table (ops commands and benchmarks). */
export function printTable(rows: Record<string, string | number>[], out: (line: string) => void = console.log): void {
  if (rows.length === 0) return out('(none)')
  const columns = Object.keys(rows[0])
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)))
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()
  out(line(columns))
  out(line(widths.map((w) => '-'.repeat(w))))
  for (const row of rows) out(line(columns.map((c) => String(row[c] ?? ''))))
}
