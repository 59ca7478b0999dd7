import { createContext, useContext, useEffect, type ComponentType } from 'react'
import type { ComposeRequest } from './inbox-compose-context.ts'

/**
 * What the inbox shows but other features build: the compose dialog (compose, e-mail jobs) and
 * the widget of an age block (decrypt). The route composes them (web/app/inbox), so no feature
 * imports another.
 */
export interface InboxParts {
  ComposeDialog: ComponentType<{ request: ComposeRequest | undefined; onClose: () => void }>
  EncryptedBlock: ComponentType<{ armored: string }>
  /** Fetches the code of what the list's reader may open next (the message page, the compose dialog); called once the list shows and the page is idle. */
  preload: () => void
}

export const InboxPartsContext = createContext<InboxParts | null>(null)

export function useInboxParts(): InboxParts {
  const parts = useContext(InboxPartsContext)
  if (!parts) throw new Error('useInboxParts() outside <InboxLayout parts={…}>')
  return parts
}

/**
 * Once `ready` (the list shows), the parts' code the reader may open next is fetched right after
 * the list's frame is painted: a row clicked while its page's code is still on the way would
 * suspend, and React shows a suspended page's fallback for at least 300 ms.
 */
export function usePreloadAfterPaint(ready: boolean): void {
  const { preload } = useInboxParts()
  useEffect(() => {
    if (!ready) return
    let timer: ReturnType<typeof setTimeout> | undefined
    // the frame after this commit is painted before the timer's task runs
    const frame = requestAnimationFrame(() => void (timer = setTimeout(preload, 0)))
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [ready, preload])
}
