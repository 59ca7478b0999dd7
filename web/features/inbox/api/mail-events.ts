// The live inbox: an EventSource on GET /api/emails/events while an inbox page is open. Each
// "mail" event refetches the lists and counts (new mail shows without a reload); while the stream
// is down the lists and counts poll every 10 s instead (FALLBACK_POLL_MS).
import { useEffect, useSyncExternalStore } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { refetchMail } from './each-email.ts'

export const FALLBACK_POLL_MS = 10_000
/** After the server refused the stream (429, 503), the next try. */
const REOPEN_MS = 30_000

let live = false
const listeners = new Set<() => void>()
function setLive(value: boolean) {
  if (live === value) return
  live = value
  for (const listener of listeners) listener()
}

/** Whether the stream is up (the lists need no polling). */
export function useMailStreamLive(): boolean {
  return useSyncExternalStore((listener) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }, () => live)
}

/** refetchInterval for the lists and counts: none while the stream is up. */
export const fallbackPoll = (streaming: boolean) => (streaming ? false : FALLBACK_POLL_MS)

export function useMailEvents(userId: string | undefined) {
  const client = useQueryClient()
  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return
    let source: EventSource | undefined
    let reopen: ReturnType<typeof setTimeout> | undefined
    let opened = 0
    const refetch = () => void refetchMail(client, userId)
    const open = () => {
      source = new EventSource('/api/emails/events')
      source.addEventListener('ready', () => {
        setLive(true)
        // a reconnect: what changed while the stream was down
        if (opened++ > 0) refetch()
      })
      source.addEventListener('mail', refetch)
      source.onerror = () => {
        setLive(false)
        // the browser retries a dropped stream by itself; one the server refused it gives up on
        if (source?.readyState === EventSource.CLOSED) reopen = setTimeout(open, REOPEN_MS)
      }
    }
    open()
    return () => {
      clearTimeout(reopen)
      source?.close()
      setLive(false)
    }
  }, [userId, client])
}
