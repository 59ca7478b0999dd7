import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import type { UpdateSmtpInput } from '../../../../shared/mailbox-smtp-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { emailProvidersKey } from '../../../lib/email-providers.ts'

/** PUT /api/email-providers/{id}/smtp: the server to send as the mailbox through, and whose login. */
export function updateSmtp({ providerId, ...settings }: UpdateSmtpInput & { providerId: string }) {
  return apiRequest<{ message: string; provider: EmailProviderView }>('PUT', `/api/email-providers/${encodeURIComponent(providerId)}/smtp`, settings)
}

export function useUpdateSmtp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateSmtp,
    // the compose From picker lists the mailboxes that can send: the same cache entry
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailProvidersKey }),
  })
}
