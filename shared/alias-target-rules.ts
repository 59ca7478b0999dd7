// The targets behind an alias (its forwardTo): comma-separated e-mail addresses and http(s)
// webhook URLs. One parser for the dashboard, the alias API and the mail pipeline; free of
// Node-only imports because the browser bundles it.

const EMAIL_RE = /^[^\s@,<>"()\[\]\\;:]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/

export function isWebhookUrl(target: string): boolean {
  if (!/^https?:\/\//i.test(target)) return false
  try {
    const url = new URL(target)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.hostname.length > 0
  } catch {
    return false
  }
}

export const isEmailTarget = (target: string) => EMAIL_RE.test(target) && target.length <= 254

/** The comma-separated targets, trimmed, without empties or duplicates. */
export function splitTargets(forwardTo: string): string[] {
  const seen = new Set<string>()
  return forwardTo.split(',').map((t) => t.trim()).filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()))
}

/** The targets split by kind; the paused marker (`null`) has none. E-mails are lower-cased. */
export function partitionTargets(forwardTo: string | null | undefined): { emails: string[]; webhooks: string[] } {
  const emails: string[] = []
  const webhooks: string[] = []
  if (!forwardTo || forwardTo.trim() === 'null') return { emails, webhooks }
  for (const target of splitTargets(forwardTo)) {
    if (/^https?:\/\//i.test(target)) webhooks.push(target)
    else if (target.includes('@')) emails.push(target.toLowerCase())
  }
  return { emails: [...new Set(emails)], webhooks }
}
