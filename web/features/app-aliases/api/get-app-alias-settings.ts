import { useQuery } from '@tanstack/react-query'
import type { AppAliasSettingsView } from '../../../../shared/app-alias-schemas.ts'
import { apiGet } from '../../../lib/api-client.ts'

export const appAliasSettingsQueryKey = ['app-alias-settings'] as const

export async function getAppAliasSettings(): Promise<AppAliasSettingsView> {
  return (await apiGet<{ settings: AppAliasSettingsView }>('/api/app-alias-settings')).settings
}

export function useAppAliasSettings() {
  return useQuery({ queryKey: appAliasSettingsQueryKey, queryFn: getAppAliasSettings })
}
