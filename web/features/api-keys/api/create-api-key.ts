import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreatedApiKey } from '../../../../shared/api-key-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { apiKeysQueryKey } from './get-api-keys.ts'

/** The answer holds the key itself: the only time it is shown. */
export async function createApiKey(name: string): Promise<CreatedApiKey> {
  return (await apiRequest<{ apiKey: CreatedApiKey }>('POST', '/api/api-keys', { name })).apiKey
}

export function useCreateApiKey() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: createApiKey, onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }) })
}
