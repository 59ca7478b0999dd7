// Benchmark figures, printed as an aligned table: figure, value, target.
import { printTable as printRows } from '../print-table.ts'

export function printTable(title: string, rows: [string, string, string][]) {
  console.log(`\n${title}`)
  printRows(rows.map(([figure, value, target]) => ({ figure, value, target })))
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const ms = (n: number) => `${n.toFixed(1)} ms`
