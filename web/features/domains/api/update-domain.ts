import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { DomainView } from '../../../../shared/domain-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'

export interface DomainChanges { id: string; catchAll?: boolean; defaultTarget?: string | null }

export async function updateDomain({ id, ...changes }: DomainChanges): Promise<DomainView> {
  return (await apiRequest<{ domain: DomainView }>('PATCH', `/api/domains/${encodeURIComponent(id)}`, changes)).domain
}

export function useUpdateDomain() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: updateDomain, onSettled: () => queryClient.invalidateQueries({ queryKey: ['domains'] }) })
}
