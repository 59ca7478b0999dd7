import { useEffect, useRef } from 'react'
import { Archive, CheckCheck, ChevronLeft, ChevronRight, Mail, MailOpen, RefreshCw, Trash2 } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { cn } from '../../../lib/cn.ts'

interface EmailListToolbarProps {
  rows: number
  selected: number
  onSelectAll: (all: boolean) => void
  refreshing: boolean
  onRefresh: () => void
  onDelete: () => void
  onMarkRead: () => void
  onMarkUnread: () => void
  /** present when every selected conversation's account has an Archive folder */
  onArchive?: () => void
  /** the folders the selection can move to (when it is all of one account) */
  moveTargets?: { id: string; name: string }[]
  onMove?: (folderId: string) => void
  onMarkAllRead: () => void
  /** "x-y of total" with previous/next, or the unread summary (no pages) */
  pager: { text: string; hasPrevious: boolean; hasNext: boolean; onPrevious: () => void; onNext: () => void } | { text: string }
}

/** The list toolbar: select-all, refresh, bulk actions or mark-all-read, pagination. */
export function EmailListToolbar(props: EmailListToolbarProps) {
  const { rows, selected, pager } = props
  const selectAll = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = selected > 0 && selected < rows
  }, [selected, rows])
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-border px-2 py-2 sm:px-3">
      <input
        ref={selectAll}
        type="checkbox"
        className="size-4 cursor-pointer accent-primary"
        aria-label="Select all"
        checked={rows > 0 && selected === rows}
        disabled={rows === 0}
        onChange={(e) => props.onSelectAll(e.target.checked)}
      />
      <Button variant="ghost" size="icon" aria-label="Refresh" onClick={props.onRefresh} disabled={props.refreshing}>
        <RefreshCw aria-hidden="true" className={cn(props.refreshing && 'animate-spin')} />
      </Button>
      {selected > 0 ? (
        <>
          {props.onArchive && (
            <Button variant="outline" size="sm" onClick={props.onArchive}>
              <Archive aria-hidden="true" />
              Archive ({selected})
            </Button>
          )}
          {props.moveTargets && props.moveTargets.length > 0 && (
            <select
              aria-label="Move to folder"
              value=""
              onChange={(e) => e.target.value && props.onMove?.(e.target.value)}
              className="h-8 cursor-pointer rounded-md border border-border bg-background px-2 text-xs"
            >
              <option value="">Move to…</option>
              {props.moveTargets.map((f) => <option key={f.id} value={f.id}>{f.name}</option>)}
            </select>
          )}
          <Button variant="outline" size="sm" onClick={props.onDelete}>
            <Trash2 aria-hidden="true" />
            Delete ({selected})
          </Button>
          <Button variant="outline" size="sm" onClick={props.onMarkRead}>
            <MailOpen aria-hidden="true" />
            Mark Read ({selected})
          </Button>
          <Button variant="outline" size="sm" onClick={props.onMarkUnread}>
            <Mail aria-hidden="true" />
            Mark Unread ({selected})
          </Button>
        </>
      ) : (
        <Button variant="ghost" size="sm" onClick={props.onMarkAllRead} disabled={rows === 0}>
          <CheckCheck aria-hidden="true" />
          Mark all read
        </Button>
      )}
      <div className="ml-auto flex items-center gap-1 text-xs text-muted-foreground">
        <span data-testid="pager-text" className="font-mono tabular-nums">{pager.text}</span>
        {'onNext' in pager && (
          <>
            <Button variant="ghost" size="icon" aria-label="Previous page" disabled={!pager.hasPrevious} onClick={pager.onPrevious}>
              <ChevronLeft aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" aria-label="Next page" disabled={!pager.hasNext} onClick={pager.onNext}>
              <ChevronRight aria-hidden="true" />
            </Button>
          </>
        )}
      </div>
    </div>
  )
}
