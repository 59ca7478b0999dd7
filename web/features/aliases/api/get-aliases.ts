import { useQuery } from '@tanstack/react-query'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

/** Every alias mutation invalidates this key. */
export const aliasesQueryKey = (userId: string) => ['aliases', userId] as const

/** The user's aliases, newest first. */
export async function getAliases(userId: string): Promise<AliasView[]> {
  const body = await apiGet<{ aliases: AliasView[] }>(`/api/aliases/${encodeURIComponent(userId)}`)
  return body.aliases
}

/** The list loads only once a user id exists (the route is per user). */
export function useAliases(userId: string | undefined) {
  return useQuery({
    queryKey: aliasesQueryKey(userId ?? ''),
    queryFn: () => getAliases(userId!),
    enabled: Boolean(userId),
  })
}
