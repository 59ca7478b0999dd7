import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AppAliasSettingsInput } from '../../../../shared/app-alias-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { appAliasSettingsQueryKey } from './get-app-alias-settings.ts'

export function saveAppAliasSettings(input: AppAliasSettingsInput): Promise<{ message: string }> {
  return apiRequest('PUT', '/api/app-alias-settings', input)
}

export function useSaveAppAliasSettings() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: saveAppAliasSettings, onSettled: () => queryClient.invalidateQueries({ queryKey: appAliasSettingsQueryKey }) })
}
