import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { emailProvidersKey } from '../../../lib/email-providers.ts'
import { invalidateMailQueries } from './sync-email-provider.ts'

/** The account, the mail synced from it and its waiting jobs go; nothing changes on the mail server. */
export function deleteEmailProvider(providerId: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('DELETE', `/api/email-providers/${encodeURIComponent(providerId)}`)
}

export function useDeleteEmailProvider() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteEmailProvider,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: emailProvidersKey })
      await invalidateMailQueries(queryClient)
    },
  })
}
