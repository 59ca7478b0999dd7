import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useAuth } from '../../../lib/auth-context.ts'
import { patchCachedEmails, type EmailFlags } from './email-cache.ts'
import { refetchMail, requestEach, type FlagResult } from './each-email.ts'

export function flagEmails(ids: readonly string[], flags: EmailFlags): Promise<FlagResult> {
  return requestEach('PATCH', ids, flags)
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
    onSettled: () => refetchMail(client, userId),
  })
}
