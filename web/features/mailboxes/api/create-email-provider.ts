import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import type { CreateEmailProviderRequest } from '../lib/account-form.ts'
import { emailProvidersKey } from '../../../lib/email-providers.ts'

export interface CreatedEmailProvider {
  provider: EmailProviderView
  /** the first sync, whose login is the credentials check */
  jobId: string
}

export function createEmailProvider(input: CreateEmailProviderRequest): Promise<CreatedEmailProvider> {
  return apiRequest<CreatedEmailProvider>('POST', '/api/email-providers', input)
}

/** Settles after the list shows the new account as "Connecting…". */
export function useCreateEmailProvider() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createEmailProvider,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailProvidersKey }),
  })
}
