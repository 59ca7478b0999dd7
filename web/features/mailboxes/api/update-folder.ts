import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { apiRequest } from '../../../lib/api-client.ts'
import { emailProvidersKey } from '../../../lib/email-providers.ts'
import { invalidateMailQueries } from './sync-email-provider.ts'

export interface FolderChange {
  providerId: string
  path: string
  enabled: boolean
}

interface FolderChanged {
  message: string
  /** the sync queued for a folder turned on */
  jobId: string | null
  provider: EmailProviderView | null
}

/** Turned on, the folder is synced into the inbox too; turned off, its mail leaves Veilmail (not the server). */
export function updateFolder({ providerId, path, enabled }: FolderChange): Promise<FolderChanged> {
  return apiRequest<FolderChanged>('PATCH', `/api/email-providers/${encodeURIComponent(providerId)}/folders`, { path, enabled })
}

export function useUpdateFolder() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateFolder,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: emailProvidersKey })
      await invalidateMailQueries(queryClient)
    },
  })
}
