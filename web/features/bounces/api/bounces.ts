import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { BounceNoticeView } from '../../../../shared/bounce-schemas.ts'
import { apiGet, apiRequest } from '../../../lib/api-client.ts'

export const bouncesQueryKey = ['bounces'] as const

/** Issue 30: the bounce notices not yet dismissed, and how many bounces in a row stop a target. */
export function useBounces() {
  return useQuery({
    queryKey: bouncesQueryKey,
    queryFn: () => apiGet<{ notices: BounceNoticeView[]; threshold: number }>('/api/bounces'),
  })
}

export function useDismissBounceNotice() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ message: string }>('DELETE', `/api/bounces/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bouncesQueryKey }),
  })
}

export function useSaveBounceThreshold() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (threshold: number) => apiRequest<{ message: string; threshold: number }>('PUT', '/api/bounces', { threshold }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bouncesQueryKey }),
  })
}
