// The delivery worker records an attempt's failure as a code (workers/delivery/delivery-step.ts), never a
// server's text; this names it as a person reads it.
const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  RequestTimeoutError: 'no answer within 10 seconds',
}

export function webhookErrorText(code: string | null): string {
  if (!code) return 'unknown error'
  const http = /^http-(\d{3})$/.exec(code)
  if (http) return `HTTP ${http[1]}`
  return NETWORK[code] ? `${NETWORK[code]} (${code})` : code
}
