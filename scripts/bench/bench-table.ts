// Prints benchmark figures as an aligned table: figure, value, target.
export function printTable(title: string, rows: [string, string, string][]) {
  const all: [string, string, string][] = [['figure', 'value', 'target'], ...rows]
  const widths = [0, 1, 2].map((i) => Math.max(...all.map((r) => r[i].length)))
  const line = (r: [string, string, string]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  process.stdout.write(`\n${title}\n${line(all[0])}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}\n`)
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const ms = (n: number) => `${n.toFixed(1)} ms`
