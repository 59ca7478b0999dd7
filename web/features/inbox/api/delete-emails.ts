import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { removeCachedEmails } from './email-cache.ts'
import { emailCountsKey } from './get-email-counts.ts'
import { emailListsKey } from './get-emails.ts'
import type { FlagResult } from './update-email-flags.ts'

/** One DELETE per e-mail (the API has no bulk route); the server moves each to Trash on the IMAP server. */
export async function deleteEmails(ids: readonly string[]): Promise<FlagResult> {
  const results = await Promise.allSettled(ids.map((id) => apiRequest('DELETE', `/api/emails/${encodeURIComponent(id)}`)))
  return {
    succeeded: ids.filter((_, i) => results[i].status === 'fulfilled'),
    failed: ids.filter((_, i) => results[i].status === 'rejected'),
  }
}

/** Gone from the list at once; if none could be deleted they come back. */
export function useDeleteEmails() {
  const client = useQueryClient()
  const userId = useAuth().user?.id ?? ''
  return useMutation({
    mutationFn: (ids: readonly string[]) => deleteEmails(ids),
    onMutate: (ids) => removeCachedEmails(client, userId, new Set(ids)),
    onSuccess: (result, _ids, restore) => {
      if (result.succeeded.length === 0) restore?.()
    },
    onError: (_error, _ids, restore) => restore?.(),
    onSettled: () => Promise.all([
      client.invalidateQueries({ queryKey: emailListsKey(userId) }),
      client.invalidateQueries({ queryKey: emailCountsKey(userId) }),
    ]),
  })
}
