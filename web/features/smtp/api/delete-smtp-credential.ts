import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { smtpCredentialsQueryKey } from './get-smtp-credentials.ts'

export function deleteSmtpCredential(aliasId: string, credentialId: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>(
    'DELETE',
    `/api/smtp-credentials/${encodeURIComponent(credentialId)}/alias/${encodeURIComponent(aliasId)}`,
  )
}

/** Settles after the list is reloaded, so the panel goes straight back to "absent". */
export function useDeleteSmtpCredential(aliasId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (credentialId: string) => deleteSmtpCredential(aliasId, credentialId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: smtpCredentialsQueryKey(aliasId) }),
  })
}
