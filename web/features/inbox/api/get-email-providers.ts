import { useQuery } from '@tanstack/react-query'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const emailProvidersKey = (userId: string) => ['email-providers', userId] as const

export async function getEmailProviders(): Promise<EmailProviderView[]> {
  return (await apiGet<{ providers: EmailProviderView[] }>('/api/email-providers')).providers
}

export function useEmailProviders(userId: string | undefined) {
  return useQuery({ queryKey: emailProvidersKey(userId ?? ''), queryFn: getEmailProviders, enabled: Boolean(userId) })
}
