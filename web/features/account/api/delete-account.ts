import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api-client.ts'

export function deleteAccount() {
  return apiRequest<{ message: string }>('DELETE', '/api/account')
}

export function useDeleteAccount(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  return useMutation({ mutationFn: deleteAccount, ...options })
}
