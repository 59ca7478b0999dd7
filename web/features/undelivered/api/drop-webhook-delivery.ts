import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { undeliveredQueryKey } from './get-undelivered.ts'
import { webhookFailuresQueryKey } from './get-webhook-failures.ts'

export function dropWebhookDelivery(deliveryId: string): Promise<{ message: string }> {
  return apiRequest('DELETE', `/api/undelivered/webhooks/${encodeURIComponent(deliveryId)}`)
}

/** Gives up on the delivery for good; the alias counts it as failed. */
export function useDropWebhookDelivery() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: dropWebhookDelivery,
    // not awaited: the row's own success toast must run before the refetch removes the row
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: webhookFailuresQueryKey })
      void queryClient.invalidateQueries({ queryKey: undeliveredQueryKey })
    },
  })
}
