import type { QueryClient } from '@tanstack/react-query'
import { initiallyExpanded, type Conversation } from '../lib/conversations.ts'
import { emailQueryKey, getEmail } from './get-email.ts'

/**
 * On opening a row: the message opened and every other one that opens with it (the unread ones)
 * are asked for at once, from what the list already knows, instead of the opened one first and the
 * others once its answer has named them. Each lands in the cache the message page reads.
 */
export function prefetchConversation(client: QueryClient, conversation: Pick<Conversation, 'latestEmail' | 'emails'>): void {
  const ids = new Set([conversation.latestEmail.id, ...initiallyExpanded(conversation.emails)])
  for (const id of ids) void client.prefetchQuery({ queryKey: emailQueryKey(id), queryFn: () => getEmail(id) })
}
