import { useQuery } from '@tanstack/react-query'
import type { TotpStatus } from '../../../../shared/account-protection-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const TOTP_STATUS_KEY = ['account', 'totp'] as const

export function useTotpStatus() {
  return useQuery({ queryKey: TOTP_STATUS_KEY, queryFn: () => apiGet<TotpStatus>('/api/account/totp') })
}
