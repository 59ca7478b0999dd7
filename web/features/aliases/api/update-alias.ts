import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AliasView, UpdateAliasInput } from '../../../../shared/alias-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { aliasesQueryKey } from './get-aliases.ts'

export async function updateAlias(aliasId: string, changes: UpdateAliasInput): Promise<AliasView> {
  const body = await apiRequest<{ alias: AliasView }>('PUT', `/api/aliases/${encodeURIComponent(aliasId)}`, changes)
  return body.alias
}

export function useUpdateAlias(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ aliasId, changes }: { aliasId: string; changes: UpdateAliasInput }) => updateAlias(aliasId, changes),
    onSettled: () => queryClient.invalidateQueries({ queryKey: aliasesQueryKey(userId) }),
  })
}
