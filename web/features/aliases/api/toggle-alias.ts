import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { aliasesQueryKey } from './get-aliases.ts'

export interface ToggleAliasResult {
  message: string
  alias: AliasView
}

/** Pause (forwardTo becomes the literal null) or resume (the kept targets come back). */
export function toggleAlias(aliasId: string, active: boolean): Promise<ToggleAliasResult> {
  return apiRequest<ToggleAliasResult>('PATCH', `/api/aliases/${encodeURIComponent(aliasId)}/toggle`, { active })
}

export function useToggleAlias(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ aliasId, active }: { aliasId: string; active: boolean }) => toggleAlias(aliasId, active),
    onSettled: () => queryClient.invalidateQueries({ queryKey: aliasesQueryKey(userId) }),
  })
}
