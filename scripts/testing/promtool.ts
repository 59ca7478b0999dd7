// `promtool check metrics` (Debian package: prometheus), the linter Prometheus ships for the text
// exposition format. Outside CI a missing promtool skips the checks with a line naming the package;
// with CI=true it fails.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

export const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool'

/** True when promtool can run; throws in CI when it cannot. */
export function promtoolAvailable(): boolean {
  if (existsSync(PROMTOOL)) return true
  if (process.env.CI === 'true') throw new Error(`${PROMTOOL} is missing: apt-get install prometheus`)
  console.warn(`skipping promtool checks: ${PROMTOOL} not found (Debian package: prometheus)`)
  return false
}

/** Feeds a /metrics body to `promtool check metrics`: its exit code and what it printed. */
export function checkMetrics(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
    child.stdin.end(text)
  })
}
