import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import type { SmtpPublicPorts } from '../lib/smtp-settings.ts'
import { smtpCredentialsQueryKey, type SmtpCredential } from './get-smtp-credentials.ts'

export interface CreatedSmtpCredential extends Pick<SmtpCredential, 'id' | 'aliasId' | 'username'> {
  /** Returned once, here; afterwards only through a reveal. */
  password: string
  host: string
  ports: SmtpPublicPorts
}

export async function createSmtpCredential(aliasId: string): Promise<CreatedSmtpCredential> {
  const body = await apiRequest<{ credential: CreatedSmtpCredential }>('POST', '/api/smtp-credentials', { aliasId })
  return body.credential
}

/** Settles after the list has the new credential, so the panel never shows "absent" with a password. */
export function useCreateSmtpCredential(aliasId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => createSmtpCredential(aliasId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: smtpCredentialsQueryKey(aliasId) }),
  })
}
