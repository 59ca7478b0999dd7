import { useQuery } from '@tanstack/react-query'
import type { ApiKeyView } from '../../../../shared/api-key-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const apiKeysQueryKey = ['api-keys'] as const

export async function getApiKeys(): Promise<ApiKeyView[]> {
  return (await apiGet<{ apiKeys: ApiKeyView[] }>('/api/api-keys')).apiKeys
}

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysQueryKey, queryFn: getApiKeys })
}
