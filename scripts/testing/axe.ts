// axe-core (Deque's accessibility engine) in a real page: loaded into the page as it ships
// (node_modules/axe-core/axe.min.js) and run with the WCAG 2.0/2.1 A and AA rules. A test calls it
// once the page's content has loaded: axe checks what is in the DOM, so a page still loading would
// pass for what it has not drawn yet.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

// evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
// govern (a <script> tag would be refused by script-src 'self', as it should be)
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const

export interface AxeFinding {
  rule: string
  impact: string
  help: string
  /** each offending element: its selector and axe's reason (the measured contrast ratio, ...) */
  nodes: string[]
}

/** The serious and critical WCAG 2 AA violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      rule: v.id, impact: v.impact ?? 'unknown', help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
    }))
  }, [...WCAG_AA_TAGS])
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
