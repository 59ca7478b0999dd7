import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { toast, type ToastInput } from '../../../components/ui/use-toast.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { removeCachedEmails } from './email-cache.ts'
import { refetchMail, requestEach, type FlagResult } from './each-email.ts'

/**
 * One DELETE per e-mail (the API has no bulk route); the server moves each to Trash on the IMAP
 * server once Undo's window has passed, or deletes it for good when it is in Trash.
 */
export function deleteEmails(ids: readonly string[]): Promise<FlagResult> {
  return requestEach('DELETE', ids)
}

/** Archive / Move to: each message to a folder of its account (`folderOf` its account's folder id). */
export async function moveEmails(emails: readonly { id: string; providerId: string }[], folderOf: ReadonlyMap<string, string>): Promise<FlagResult> {
  const results = await Promise.allSettled(emails.map((e) => apiRequest('POST', `/api/emails/${encodeURIComponent(e.id)}/move`, { folderId: folderOf.get(e.providerId) })))
  const ids = emails.map((e) => e.id)
  return { succeeded: ids.filter((_, i) => results[i].status === 'fulfilled'), failed: ids.filter((_, i) => results[i].status === 'rejected') }
}

/** Undo of a delete: each message back where it was, while its move to Trash has not happened. */
export async function restoreEmails(ids: readonly string[]): Promise<FlagResult> {
  const results = await Promise.allSettled(ids.map((id) => apiRequest('POST', `/api/emails/${encodeURIComponent(id)}/restore`)))
  return { succeeded: ids.filter((_, i) => results[i].status === 'fulfilled'), failed: ids.filter((_, i) => results[i].status === 'rejected') }
}

/** The toast of a delete that moved mail to Trash, with Undo. */
export function toastWithUndo(client: QueryClient, userId: string, base: ToastInput, ids: readonly string[]) {
  toast({
    ...base,
    action: {
      label: 'Undo',
      altText: 'Undo: bring the deleted email back',
      onClick: () => void restoreEmails(ids).then(async (result) => {
        await refetchMail(client, userId)
        toast(result.failed.length === 0
          ? { title: 'Restored', description: `${result.succeeded.length === 1 ? 'The email is' : `${result.succeeded.length} emails are`} back.` }
          : { title: 'Undo failed', description: 'Some emails were already moved to Trash: look for them there.', variant: 'destructive' })
      }),
    },
  })
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
