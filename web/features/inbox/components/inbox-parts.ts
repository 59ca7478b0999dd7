import { createContext, useContext, type ComponentType } from 'react'
import type { ComposeRequest } from './inbox-compose-context.ts'

/**
 * What the inbox shows but other features build: the compose dialog (compose, e-mail jobs) and
 * the widget of an age block (decrypt). The route composes them (web/app/inbox), so no feature
 * imports another.
 */
export interface InboxParts {
  ComposeDialog: ComponentType<{ request: ComposeRequest | undefined; onClose: () => void }>
  EncryptedBlock: ComponentType<{ armored: string }>
}

export const InboxPartsContext = createContext<InboxParts | null>(null)

export function useInboxParts(): InboxParts {
  const parts = useContext(InboxPartsContext)
  if (!parts) throw new Error('useInboxParts() outside <InboxLayout parts={…}>')
  return parts
}
