import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { DomainView } from '../../../../shared/domain-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'

export async function addDomain(domain: string): Promise<DomainView> {
  return (await apiRequest<{ domain: DomainView }>('POST', '/api/domains', { domain })).domain
}

export function useAddDomain() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: addDomain, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['domains'] }) })
}
