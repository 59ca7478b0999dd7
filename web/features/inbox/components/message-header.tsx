import { Star } from 'lucide-react'
import type { EmailListView } from '../../../../shared/email-schemas.ts'
import { cn } from '../../../lib/cn.ts'
import { initials } from '../lib/conversations.ts'
import { detailDate } from '../lib/mail-dates.ts'

/** Sender avatar, from and to, the date, and the star toggle of one message. */
export function MessageHeader({ email, onStar }: { email: EmailListView; onStar: () => void }) {
  return (
    <div className="flex items-start gap-3">
      <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/15 font-mono text-sm font-semibold text-primary">
        {initials(email.fromName, email.fromAddress)}
      </span>
      <div className="min-w-0 flex-1 text-sm">
        <p className="break-words">
          <span className="font-semibold">{email.fromName || email.fromAddress}</span>
          {email.fromName && <span className="text-muted-foreground"> &lt;{email.fromAddress}&gt;</span>}
        </p>
        <p className="break-words text-muted-foreground">to {email.toAddress || '(no recipient)'}</p>
        <p className="text-xs text-muted-foreground">
          <time dateTime={email.receivedAt}>{detailDate(email.receivedAt)}</time>
        </p>
      </div>
      <button
        type="button"
        onClick={onStar}
        aria-pressed={email.isStarred}
        aria-label={email.isStarred ? 'Unstar' : 'Star'}
        className="shrink-0 cursor-pointer rounded p-1.5 hover:bg-muted print:hidden"
      >
        <Star className={cn('size-5', email.isStarred ? 'fill-amber-400 text-amber-500' : 'text-muted-foreground')} aria-hidden="true" />
      </button>
    </div>
  )
}
