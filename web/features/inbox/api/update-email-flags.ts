import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { patchCachedEmails, type EmailFlags } from './email-cache.ts'
import { emailCountsKey } from './get-email-counts.ts'
import { emailListsKey } from './get-emails.ts'

export interface FlagResult { succeeded: string[]; failed: string[] }

/** One PATCH per e-mail (the API has no bulk route), all at once; a failure of some leaves the others done. */
export async function flagEmails(ids: readonly string[], flags: EmailFlags): Promise<FlagResult> {
  const results = await Promise.allSettled(ids.map((id) => apiRequest('PATCH', `/api/emails/${encodeURIComponent(id)}`, flags)))
  return {
    succeeded: ids.filter((_, i) => results[i].status === 'fulfilled'),
    failed: ids.filter((_, i) => results[i].status === 'rejected'),
  }
}

/**
 * Star or read, shown at once; the messages that failed go back to what they were and the
 * caller's `onResult` says so (in a toast). The server queues the IMAP write-back.
 */
export function useFlagEmails() {
  const client = useQueryClient()
  const userId = useAuth().user?.id ?? ''
  return useMutation({
    mutationFn: ({ ids, flags }: { ids: readonly string[]; flags: EmailFlags }) => flagEmails(ids, flags),
    onMutate: ({ ids, flags }) => patchCachedEmails(client, userId, new Set(ids), flags),
    onSuccess: (result, _vars, restore) => {
      if (result.failed.length > 0 && result.succeeded.length === 0) restore?.()
    },
    onError: (_error, _vars, restore) => restore?.(),
    onSettled: () => Promise.all([
      client.invalidateQueries({ queryKey: emailListsKey(userId) }),
      client.invalidateQueries({ queryKey: emailCountsKey(userId) }),
    ]),
  })
}
