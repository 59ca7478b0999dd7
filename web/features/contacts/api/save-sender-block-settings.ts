import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { SenderBlockSettingsView } from '../../../../shared/sender-block-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { senderBlockSettingsQueryKey } from './get-sender-block-settings.ts'

export function useSaveSenderBlockSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SenderBlockSettingsView) => apiRequest<{ message: string }>('PUT', '/api/sender-block-settings', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: senderBlockSettingsQueryKey }),
  })
}
