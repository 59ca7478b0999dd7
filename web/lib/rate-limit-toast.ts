import type { ToastInput } from '../components/ui/use-toast.ts'
import { ApiError, errorMessage } from './api-client.ts'

/** A failed account-mail request as a toast: "Rate Limit Exceeded" with when to try again, or `title`. */
export function accountMailErrorToast(error: unknown, title: string): ToastInput {
  if (error instanceof ApiError && error.rateLimited) {
    const when = error.resetTime ? ` Try again after ${new Date(error.resetTime).toLocaleTimeString()}.` : ''
    return { title: 'Rate Limit Exceeded', description: `${error.message}${when}`, variant: 'destructive' }
  }
  return { title, description: errorMessage(error, 'Please try again.'), variant: 'destructive' }
}
