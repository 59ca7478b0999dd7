import { useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api-client.ts'

// Kept apart from the alias list's key so refreshing the list never refetches a secret.
export const webhookSecretQueryKey = (aliasId: string) => ['webhook-secret', aliasId] as const

export async function getWebhookSecret(aliasId: string): Promise<string> {
  const body = await apiGet<{ secret: string }>(`/api/aliases/${encodeURIComponent(aliasId)}/webhook-secret`)
  return body.secret
}

/** Fetched only once the user asks to reveal it. */
export function useWebhookSecret(aliasId: string, enabled: boolean) {
  return useQuery({
    queryKey: webhookSecretQueryKey(aliasId),
    queryFn: () => getWebhookSecret(aliasId),
    enabled,
  })
}
