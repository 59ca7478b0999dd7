import { useQuery } from '@tanstack/react-query'
import type { SessionInfo } from '../../../../shared/account-protection-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const SESSIONS_KEY = ['account', 'sessions'] as const

export function useSessions() {
  return useQuery({ queryKey: SESSIONS_KEY, queryFn: async () => (await apiGet<{ sessions: SessionInfo[] }>('/api/account/sessions')).sessions })
}
