// In-page timings for the browser benchmarks: the page itself notes when a user's click happened
// (the event's own time stamp) and the first animation frame at which a condition on the document
// holds (a MutationObserver re-checks it on every change, an <iframe> on its load), so the figures
// carry none of the test process's round trips to the browser. Times are performance.now() of the
// page: since the navigation began, for a page just loaded.
import type { Page } from 'playwright-core'

/** What is waited for: rows of the list, a message's body, every message of a conversation. */
export type Milestone = 'rows' | 'message' | 'conversation'

interface TimingWindow {
  speed: { clickAt?: number; done: Partial<Record<Milestone, number>>; arm(milestone: Milestone, count?: number): void }
}

/** Installs the timer in every document the page opens (before the app's own scripts). */
export async function installPageTiming(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as TimingWindow
    // a message body has shown: its text, or its sanitized HTML loaded in the frame
    const bodyShown = (root: Element) => {
      if (root.querySelector('[data-testid="plain-body"]')?.textContent?.trim()) return true
      const frame = root.querySelector<HTMLIFrameElement>('iframe[title="Message body"]')
      const doc = frame?.src.startsWith('blob:') ? frame.contentDocument : null
      return Boolean(doc && doc.readyState === 'complete' && doc.body?.textContent?.trim())
    }
    const checks: Record<Milestone, (count: number) => boolean> = {
      rows: () => document.querySelector('[data-testid="email-row"] [data-testid="row-subject"]') !== null,
      message: () => {
        const detail = document.querySelector('[data-testid="email-detail"]')
        return detail !== null && bodyShown(detail)
      },
      conversation: (count) => {
        const items = [...document.querySelectorAll('[data-testid="email-detail"] [data-testid="conversation-message"]')]
        const open = items.filter((i) => i.getAttribute('data-expanded') === 'true')
        return items.length === count && open.length > 0 && open.every(bodyShown)
      },
    }
    const armed = new Map<Milestone, number>([['rows', 0]])
    const check = () => {
      for (const [milestone, count] of armed) {
        if (!checks[milestone](count)) continue
        armed.delete(milestone)
        requestAnimationFrame(() => void (w.speed.done[milestone] = performance.now()))
      }
    }
    w.speed = {
      done: {},
      arm(milestone, count = 0) {
        delete this.done[milestone]
        this.clickAt = undefined
        armed.set(milestone, count)
      },
    }
    document.addEventListener('click', (event) => void (w.speed.clickAt ??= event.timeStamp), true)
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue
          for (const frame of node.matches('iframe') ? [node] : [...node.querySelectorAll('iframe')]) frame.addEventListener('load', check)
        }
      }
      check()
    }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true })
  })
}

/** Since the navigation began, when the list's first row showed. */
export async function rowsShownAt(page: Page): Promise<number> {
  await page.waitForFunction(() => (window as unknown as TimingWindow).speed.done.rows !== undefined)
  return page.evaluate(() => (window as unknown as TimingWindow).speed.done.rows!)
}

/** Watches for a milestone (`count` messages of a conversation), runs `click`, and answers the time from the click to it. */
export async function clickToShown(page: Page, milestone: Exclude<Milestone, 'rows'>, click: () => Promise<void>, count = 0): Promise<number> {
  await page.evaluate(([m, n]) => (window as unknown as TimingWindow).speed.arm(m, n), [milestone, count] as const)
  await click()
  await page.waitForFunction((m) => (window as unknown as TimingWindow).speed.done[m] !== undefined, milestone)
  return page.evaluate((m) => {
    const { speed } = window as unknown as TimingWindow
    return speed.done[m]! - speed.clickAt!
  }, milestone)
}
