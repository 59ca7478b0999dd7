import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { webhookSecretQueryKey } from './get-webhook-secret.ts'

export async function rotateWebhookSecret(aliasId: string): Promise<string> {
  const body = await apiRequest<{ secret: string }>('POST', `/api/aliases/${encodeURIComponent(aliasId)}/webhook-secret/rotate`)
  return body.secret
}

/** The old secret stops signing at once; the new one replaces it in the cache. */
export function useRotateWebhookSecret(aliasId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => rotateWebhookSecret(aliasId),
    onSuccess: (secret) => queryClient.setQueryData(webhookSecretQueryKey(aliasId), secret),
  })
}
