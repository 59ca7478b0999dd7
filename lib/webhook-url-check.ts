// Webhook URLs are checked when an alias is saved, not only at delivery (issue 11), so a hostile
// or mistaken target gets a clear answer at once: https only (http where ALLOW_PRIVATE_NETWORKS
// is on: tests, development), no user name or password, and every address the host resolves to
// public (ssrf-guard.ts). The WHATWG URL parser has already turned decimal, octal and hex IPv4
// spellings into dotted form. A host that does not resolve (yet, or DNS is down) is let through:
// delivery resolves and checks again before every connection.
import { BlockedAddressError, resolvePublicAddress, type Lookup } from './ssrf-guard.ts'

export const WEBHOOK_URL_MESSAGES = {
  scheme: 'Webhook URLs must start with https://',
  credentials: 'Webhook URLs must not contain a user name or password',
  blocked: 'Webhook URLs must not point to a private, loopback or reserved address',
} as const

export interface WebhookUrlCheckOptions {
  allowPrivate: boolean
  timeoutMs: number
  lookup?: Lookup
}

/** What is wrong with a webhook URL, as a message for the form; undefined when nothing is. */
export async function webhookUrlProblem(raw: string, options: WebhookUrlCheckOptions): Promise<string | undefined> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return WEBHOOK_URL_MESSAGES.scheme
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPrivate)) return WEBHOOK_URL_MESSAGES.scheme
  if (url.username || url.password) return WEBHOOK_URL_MESSAGES.credentials
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), options.timeoutMs) })
  try {
    await Promise.race([resolvePublicAddress(url.hostname, options), deadline])
    return undefined
  } catch (error) {
    return error instanceof BlockedAddressError ? WEBHOOK_URL_MESSAGES.blocked : undefined // unresolvable: see above
  } finally {
    clearTimeout(timer)
  }
}
