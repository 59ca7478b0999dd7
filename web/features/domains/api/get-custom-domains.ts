import { useQuery } from '@tanstack/react-query'
import type { DomainView } from '../../../../shared/domain-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

/** Under ['domains']: invalidating that key refreshes the alias form's domain list too. */
export const customDomainsQueryKey = ['domains', 'custom'] as const

export async function getCustomDomains(): Promise<DomainView[]> {
  return (await apiGet<{ customDomains?: DomainView[] }>('/api/domains')).customDomains ?? []
}

export function useCustomDomains() {
  return useQuery({ queryKey: customDomainsQueryKey, queryFn: getCustomDomains })
}
