import { useQuery } from '@tanstack/react-query'
import type { ContactView } from '../../../../shared/sender-block-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const aliasContactsQueryKey = (aliasId: string) => ['alias-contacts', aliasId] as const

/** The alias's contacts, fetched when its details are open. */
export function useAliasContacts(aliasId: string) {
  return useQuery({
    queryKey: aliasContactsQueryKey(aliasId),
    queryFn: async () => (await apiGet<{ contacts: ContactView[] }>(`/api/alias-contacts/${encodeURIComponent(aliasId)}`)).contacts,
  })
}
