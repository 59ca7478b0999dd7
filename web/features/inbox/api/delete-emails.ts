import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useAuth } from '../../../lib/auth-context.ts'
import { removeCachedEmails } from './email-cache.ts'
import { refetchMail, requestEach, type FlagResult } from './each-email.ts'

/** One DELETE per e-mail (the API has no bulk route); the server moves each to Trash on the IMAP server. */
export function deleteEmails(ids: readonly string[]): Promise<FlagResult> {
  return requestEach('DELETE', ids)
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
    onSettled: () => refetchMail(client, userId),
  })
}
