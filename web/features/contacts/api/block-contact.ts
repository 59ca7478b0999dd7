import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ContactView } from '../../../../shared/sender-block-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { aliasContactsQueryKey } from './get-alias-contacts.ts'

/** Blocks or unblocks one contact of the alias; the list is refetched after. */
export function useBlockContact(aliasId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ contactId, blocked }: { contactId: string; blocked: boolean }) =>
      apiRequest<{ contact: ContactView }>('PATCH', `/api/alias-contacts/${encodeURIComponent(aliasId)}/${encodeURIComponent(contactId)}`, { blocked }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: aliasContactsQueryKey(aliasId) }),
  })
}
