import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Paperclip, Star } from 'lucide-react'
import { prefetchConversation } from '../api/prefetch-conversation.ts'
import { cn } from '../../../lib/cn.ts'
import { senderLabel, type Conversation } from '../lib/conversations.ts'
import { isTypingTarget } from '../lib/inbox-shortcuts.ts'
import { listDate } from '../lib/mail-dates.ts'

interface EmailRowProps {
  conversation: Conversation
  selected: boolean
  mobile: boolean
  onSelect: (selected: boolean) => void
  onStar: () => void
  onOpen: () => void
  /** in "All accounts" (more than one), the account the conversation came to */
  account?: string
  /** the keyboard's row (j/k): its open button takes the focus */
  current?: boolean
}

/** A list row: checkbox, star, sender's name (count), subject, preview, account (in All accounts), paperclip, date, unread dot. */
export function EmailRow({ conversation, selected, mobile, onSelect, onStar, onOpen, account, current = false }: EmailRowProps) {
  const openButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    // never out of a field the reader is typing in (the search box, while its results come)
    if (current && !isTypingTarget(document.activeElement as HTMLInputElement | null)) openButton.current?.focus()
  }, [current])
  const client = useQueryClient()
  const { latestEmail: latest } = conversation
  const unread = conversation.unreadCount > 0
  const starred = conversation.emails.some((e) => e.isStarred)
  const attachments = conversation.emails.some((e) => e.hasAttachments)
  const subject = latest.subject || '(no subject)'
  return (
    <li
      data-testid="email-row"
      data-unread={unread}
      data-current={current}
      className={cn(
        'group flex items-center gap-2 border-b border-border px-2 py-2.5 last:border-b-0 hover:bg-muted/60 sm:gap-3 sm:px-3',
        selected && 'bg-accent/40',
        current && 'shadow-[inset_3px_0_0_var(--color-primary)]',
        unread ? 'font-semibold text-foreground' : 'text-muted-foreground',
      )}
    >
      <input
        type="checkbox"
        className="size-4 shrink-0 cursor-pointer accent-primary"
        checked={selected}
        onChange={(e) => onSelect(e.target.checked)}
        aria-label={`Select ${subject}`}
      />
      <button
        type="button"
        onClick={onStar}
        aria-pressed={starred}
        aria-label={starred ? 'Unstar' : 'Star'}
        className="shrink-0 cursor-pointer rounded p-1 hover:bg-muted"
      >
        <Star className={cn('size-4', starred ? 'fill-amber-400 text-amber-500' : 'text-muted-foreground')} aria-hidden="true" />
      </button>
      {/* the messages that open with the row are asked for as the button is pressed, not once the click ends */}
      <button ref={openButton} type="button" onClick={onOpen} onPointerDown={() => prefetchConversation(client, conversation)} className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 text-left sm:gap-3">
        <span className="flex min-w-0 flex-1 flex-col gap-0.5 text-sm sm:flex-row sm:items-baseline sm:gap-3">
          <span className="truncate sm:w-40 sm:shrink-0" data-testid="row-sender">{senderLabel(conversation)}</span>
          <span className="flex min-w-0 flex-1 items-baseline gap-2">
            <span className={cn('truncate', unread ? 'text-foreground' : 'text-foreground/80')} data-testid="row-subject">{subject}</span>
            {!mobile && latest.preview && <span className="hidden min-w-0 flex-1 truncate font-normal text-muted-foreground lg:inline">— {latest.preview}</span>}
          </span>
        </span>
        {account && <span className="hidden max-w-40 shrink-0 truncate rounded bg-muted px-1.5 py-0.5 text-xs font-normal text-muted-foreground sm:inline" data-testid="row-account">{account}</span>}
        {attachments && <Paperclip className="size-4 shrink-0 text-muted-foreground" aria-label="Has attachments" />}
        <time dateTime={latest.receivedAt} className="min-w-12 shrink-0 whitespace-nowrap text-right font-mono text-xs tabular-nums">
          {listDate(latest.receivedAt, mobile)}
        </time>
        <span className={cn('size-2 shrink-0 rounded-full', unread ? 'bg-primary' : 'bg-transparent')} aria-label={unread ? 'Unread' : undefined} role={unread ? 'img' : undefined} />
      </button>
    </li>
  )
}
