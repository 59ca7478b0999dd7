// Every outgoing message leaves through one relay, so when it stops answering every mail is
// deferred on its own backoff (up to hours). Postfix flushes a destination that comes back; so
// do we: the first sign of the relay answering again (a send that goes through, or a probe —
// connect, EHLO, QUIT — every few seconds while it is down) makes the deferred mail due at once.
import { errorFields, log } from '../../lib/log.ts'
import type { OutboundTransport } from '../../lib/outbound-transport.ts'

/** Failures that say the relay itself is unreachable, not that it refused this message. */
export function isRelayUnreachable(error: unknown): boolean {
  const e = error as { code?: string; responseCode?: number }
  return ['ECONNECTION', 'ECONNREFUSED', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNRESET'].includes(e.code ?? '') || e.responseCode === 421
}

export interface RelayWatch {
  transport: OutboundTransport
  stop(): void
}

export function watchRelay(inner: OutboundTransport, onBack: () => Promise<void>, options: { firstProbeMs?: number; maxProbeMs?: number } = {}): RelayWatch {
  const firstProbeMs = options.firstProbeMs ?? 2000
  const maxProbeMs = options.maxProbeMs ?? 60_000
  let down = false
  let probe: NodeJS.Timeout | undefined
  let stopped = false

  const back = () => {
    if (!down) return
    down = false
    clearTimeout(probe)
    probe = undefined
    onBack().catch((error) => log.warn('relay.flush_failed', errorFields(error)))
  }
  const scheduleProbe = (delay: number) => {
    if (stopped || !inner.verify) return
    probe = setTimeout(async () => {
      try {
        await inner.verify!()
        back()
      } catch {
        if (down) scheduleProbe(Math.min(delay * 2, maxProbeMs))
      }
    }, delay)
    probe.unref()
  }
  const markDown = () => {
    if (down) return
    down = true
    log.warn('relay.unreachable', {})
    scheduleProbe(firstProbeMs)
  }

  return {
    transport: {
      async send(message) {
        let refused
        try {
          refused = await inner.send(message)
        } catch (error) {
          if (isRelayUnreachable(error)) markDown()
          throw error
        }
        back()
        return refused // the recipients refused while the others took it
      },
      verify: inner.verify?.bind(inner),
      close: () => inner.close(),
    },
    stop() {
      stopped = true
      clearTimeout(probe)
    },
  }
}
