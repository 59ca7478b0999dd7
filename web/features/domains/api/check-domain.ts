import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { DomainView } from '../../../../shared/domain-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'

/** Resolves the domain's records now; the answer says what was found for each. */
export async function checkDomain(id: string): Promise<DomainView> {
  return (await apiRequest<{ domain: DomainView }>('POST', `/api/domains/${encodeURIComponent(id)}/check`)).domain
}

export function useCheckDomain() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: checkDomain, onSettled: () => queryClient.invalidateQueries({ queryKey: ['domains'] }) })
}
