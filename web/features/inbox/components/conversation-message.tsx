import { ChevronDown, ChevronRight } from 'lucide-react'
import type { EmailListView } from '../../../../shared/email-schemas.ts'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { cn } from '../../../lib/cn.ts'
import { useEmail } from '../api/get-email.ts'
import { listDate } from '../lib/mail-dates.ts'
import { MessageBody } from './message-body.tsx'
import { MessageHeader } from './message-header.tsx'

interface ConversationMessageProps {
  email: EmailListView
  expanded: boolean
  onToggle: () => void
  onStar: () => void
}

/** One message of a conversation: a 150-character preview when collapsed, the whole message when open. */
export function ConversationMessage({ email, expanded, onToggle, onStar }: ConversationMessageProps) {
  const detail = useEmail(email.id, expanded)
  return (
    <li className="rounded-lg border border-border bg-card" data-testid="conversation-message" data-expanded={expanded}>
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={expanded}
        className={cn('flex w-full cursor-pointer items-center gap-2 px-3 py-2.5 text-left text-sm hover:bg-muted/50', !email.isRead && 'font-semibold')}
      >
        {expanded ? <ChevronDown className="size-4 shrink-0" aria-hidden="true" /> : <ChevronRight className="size-4 shrink-0" aria-hidden="true" />}
        <span className="w-32 shrink-0 truncate">{email.fromName || email.fromAddress}</span>
        <span className="min-w-0 flex-1 truncate font-normal text-muted-foreground">{expanded ? '' : email.preview}</span>
        <time dateTime={email.receivedAt} className="shrink-0 font-mono text-xs text-muted-foreground">{listDate(email.receivedAt, false)}</time>
      </button>
      {expanded && (
        <div className="grid grid-cols-1 gap-4 border-t border-border p-3 sm:p-4">
          <MessageHeader email={email} onStar={onStar} />
          {detail.data ? <MessageBody email={detail.data} /> : detail.isError ? <p className="text-sm text-destructive">This message could not be loaded.</p> : <Spinner label="Loading message" />}
        </div>
      )}
    </li>
  )
}
