// What star, read and delete say, one at a time or in bulk (one request per
// e-mail, partial failure tolerated).
import type { ToastInput } from '../../../components/ui/use-toast.ts'

const failed = (description: string): ToastInput => ({ title: 'Error', description, variant: 'destructive' })

export const STAR_FAILED = failed('Failed to update star status. Please try again.')
export const READ_FAILED = failed('Failed to mark email as read. Please try again.')
export const UNREAD_FAILED = failed('Failed to mark email as unread. Please try again.')
export const EMAIL_DELETED: ToastInput = { title: 'Email deleted', description: 'Email deleted successfully' }
export const EMAIL_DELETE_FAILED = failed('Failed to delete email. Please try again.')
export const CONVERSATION_DELETED: ToastInput = { title: 'Conversation deleted', description: 'Conversation deleted successfully' }
export const CONVERSATION_DELETE_FAILED = failed('Failed to delete conversation. Please try again.')
export const REFRESHED: ToastInput = { title: 'Refreshed', description: 'Email list refreshed from cache.' }

const emails = (n: number) => `${n} email${n === 1 ? '' : 's'}`

export function bulkDeleteToast(succeeded: number, failedCount: number): ToastInput {
  if (succeeded === 0) return { title: 'Deletion failed', description: 'Failed to delete the selected emails.', variant: 'destructive' }
  return { title: 'Emails deleted', description: `${emails(succeeded)} deleted successfully${failedCount ? `, ${failedCount} failed` : ''}` }
}

export function bulkReadToast(succeeded: number, failedCount: number, isRead = true): ToastInput {
  const state = isRead ? 'read' : 'unread'
  if (succeeded === 0) return { title: 'Update failed', description: `Failed to mark emails as ${state}.`, variant: 'destructive' }
  return { title: `Emails marked as ${state}`, description: `${emails(succeeded)} updated${failedCount ? `, ${failedCount} failed` : ''}` }
}

export const BULK_DELETE_ERROR = failed('An error occurred while deleting emails.')
export const BULK_UPDATE_ERROR = failed('An error occurred while updating emails.')

/** "{n} unread conversation(s)" or "No unread conversations" (the list view's heading). */
export function unreadSummary(conversations: number): string {
  if (conversations === 0) return 'No unread conversations'
  return `${conversations} unread conversation${conversations === 1 ? '' : 's'}`
}
