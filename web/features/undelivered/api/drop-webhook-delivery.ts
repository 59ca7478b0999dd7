import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'
import { refetchFailureLists } from './get-webhook-failures.ts'

export function dropWebhookDelivery(deliveryId: string): Promise<{ message: string }> {
  return apiRequest('DELETE', `/api/undelivered/webhooks/${encodeURIComponent(deliveryId)}`)
}

/** Gives up on the delivery for good; the alias counts it as failed. */
export function useDropWebhookDelivery() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: dropWebhookDelivery,
    onSettled: () => refetchFailureLists(queryClient),
  })
}
