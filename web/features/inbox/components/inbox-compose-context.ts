import { createContext, useContext } from 'react'
import type { MailDraft } from '../lib/reply-draft.ts'

export interface ComposeRequest {
  /** "Compose Email", "Reply to: {subject}" or "Forward: {subject}" */
  title: string
  /** the queued toast: "Email sent" or "Reply sent" */
  queuedTitle: string
  initial?: MailDraft
}

/** Opens the inbox's compose dialog from the sidebar or a message. */
export const InboxComposeContext = createContext<(request: ComposeRequest) => void>(() => {})

export function useOpenCompose() {
  return useContext(InboxComposeContext)
}

export const NEW_EMAIL: ComposeRequest = { title: 'Compose Email', queuedTitle: 'Email sent' }
