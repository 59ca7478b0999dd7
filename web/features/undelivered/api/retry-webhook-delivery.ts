import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { refetchFailureLists } from './get-webhook-failures.ts'

export function retryWebhookDelivery(deliveryId: string): Promise<{ message: string }> {
  return apiRequest('POST', `/api/undelivered/webhooks/${encodeURIComponent(deliveryId)}/retry`)
}

/** Makes the delivery's next try due now; the list is fetched again. */
export function useRetryWebhookDelivery() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: retryWebhookDelivery,
    onSettled: () => refetchFailureLists(queryClient),
  })
}
