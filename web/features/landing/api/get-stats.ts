import { useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api-client.ts'

export interface PublicStats {
  totalUsers: number
  totalAliases: number
}

export function usePublicStats() {
  return useQuery({
    queryKey: ['stats'],
    queryFn: () => apiGet<PublicStats>('/api/stats'),
  })
}

/** "{floor(totalUsers/1000)}k+ users", or the spec's fallback when stats are missing. */
export function formatUserCount(stats: PublicStats | undefined): string {
  const total = Number(stats?.totalUsers)
  if (!stats || !Number.isFinite(total)) return '31k+ users'
  return `${Math.floor(total / 1000)}k+ users`
}
