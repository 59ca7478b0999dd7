import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import type { SmtpCredential } from './get-smtp-credentials.ts'

/** The old password stops working at once; the new one is returned this one time. */
export async function regenerateSmtpPassword(aliasId: string, credentialId: string): Promise<string> {
  const body = await apiRequest<{ credential: SmtpCredential & { password: string } }>(
    'PATCH',
    `/api/smtp-credentials/${encodeURIComponent(credentialId)}/alias/${encodeURIComponent(aliasId)}/regenerate`,
  )
  return body.credential.password
}

/** Nothing cached changes: the list never holds passwords. */
export function useRegenerateSmtpPassword(aliasId: string) {
  return useMutation({ mutationFn: (credentialId: string) => regenerateSmtpPassword(aliasId, credentialId) })
}
