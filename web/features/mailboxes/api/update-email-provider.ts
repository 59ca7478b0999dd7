import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { emailProvidersKey } from '../../../lib/email-providers.ts'
import type { CreatedEmailProvider } from './create-email-provider.ts'
import type { UpdateEmailProviderRequest } from '../lib/account-form.ts'

/** A password account's server or login fixed: saved, then its next sync logs in with it (the job to poll). */
export function updateEmailProvider({ providerId, request }: { providerId: string; request: UpdateEmailProviderRequest }): Promise<CreatedEmailProvider> {
  return apiRequest<CreatedEmailProvider>('PATCH', `/api/email-providers/${encodeURIComponent(providerId)}`, request)
}

/** Settles after the list shows the account as "Connecting…" again. */
export function useUpdateEmailProvider() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateEmailProvider,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailProvidersKey }),
  })
}
