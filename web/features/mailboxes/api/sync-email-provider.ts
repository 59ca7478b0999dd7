import { useMutation, type QueryClient } from '@tanstack/react-query'
import { syncEmailProvider } from '../../../lib/email-providers.ts'

/**
 * Cached e-mail lists, counts and storage figures are refreshed after a sync. They
 * belong to the inbox, whose query keys start with 'emails'.
 */
export function invalidateMailQueries(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('emails') })
}

export function useSyncEmailProvider() {
  return useMutation({ mutationFn: syncEmailProvider })
}
