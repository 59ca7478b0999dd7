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

/** Once `ready` (the list shows), the parts' code the reader may open next is fetched while the page is idle. */
export function usePreloadWhenIdle(ready: boolean): void {
  const { preload } = useInboxParts()
  useEffect(() => {
    if (!ready) return
    if (typeof requestIdleCallback !== 'function') return preload()
    const handle = requestIdleCallback(preload, { timeout: 2000 })
    return () => cancelIdleCallback(handle)
  }, [ready, preload])
}
