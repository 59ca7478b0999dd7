import { useQuery } from '@tanstack/react-query'
import type { SenderBlockSettingsView } from '../../../../shared/sender-block-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const senderBlockSettingsQueryKey = ['sender-block-settings'] as const

export function useSenderBlockSettings() {
  return useQuery({
    queryKey: senderBlockSettingsQueryKey,
    queryFn: async () => (await apiGet<{ settings: SenderBlockSettingsView }>('/api/sender-block-settings')).settings,
  })
}
