import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AliasView, CreateAliasInput } from '../../../../shared/alias-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { aliasesQueryKey } from './get-aliases.ts'

export async function createAlias(userId: string, input: CreateAliasInput): Promise<AliasView> {
  const body = await apiRequest<{ alias: AliasView }>('POST', `/api/aliases/${encodeURIComponent(userId)}`, input)
  return body.alias
}

export function useCreateAlias(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateAliasInput) => createAlias(userId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aliasesQueryKey(userId) }),
  })
}
