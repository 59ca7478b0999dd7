import { useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api-client.ts'

/**
 * The two preferred product domains first, then the rest alphabetically. The server
 * lists its preferred domains first (MAIL_DOMAINS order), so those are the first two it returns.
 */
export function sortDomains(domains: string[]): string[] {
  const unique = [...new Set(domains)]
  return [...unique.slice(0, 2), ...unique.slice(2).sort((a, b) => a.localeCompare(b))]
}

export async function getDomains(): Promise<string[]> {
  const body = await apiGet<{ domains: string[] }>('/api/domains')
  return sortDomains(body.domains)
}

export function useDomains() {
  return useQuery({ queryKey: ['domains'], queryFn: getDomains })
}
