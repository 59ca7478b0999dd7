import { useEffect, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { Search, X } from 'lucide-react'
import { Input } from '../../../components/ui/input.tsx'
import type { UnsearchedAccountView } from '../../../../shared/email-schemas.ts'
import { MAX_QUERY_CHARS } from '../../../../shared/mail-search-query.ts'
import { inboxSearch, type InboxView } from '../lib/inbox-view.ts'

/**
 * The inbox's search box: Enter searches every connected account (the query goes into the address,
 * ?q=, so Back and Forward return to it), the cross clears it. "/" focuses it (the shortcut finds
 * it by its type, search).
 */
export function InboxSearchBox({ view }: { view: InboxView }) {
  const navigate = useNavigate()
  const [text, setText] = useState(view.q ?? '')
  // Back and Forward change the query under the box
  useEffect(() => setText(view.q ?? ''), [view.q])
  const search = (q: string | undefined) => navigate(`/inbox${inboxSearch({ ...view, page: 0, q: q?.trim() || undefined })}`)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    search(text)
  }
  return (
    <form role="search" onSubmit={submit} className="relative border-b border-border px-2 py-2 sm:px-3">
      <Search className="pointer-events-none absolute top-1/2 left-5 size-4 -translate-y-1/2 text-muted-foreground sm:left-6" aria-hidden="true" />
      <Input
        type="search"
        name="q"
        aria-label="Search mail"
        placeholder="Search mail (from:, to:, subject:, has:attachment, is:unread…)"
        value={text}
        maxLength={MAX_QUERY_CHARS}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') event.currentTarget.blur()
        }}
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
      />
      {(text || view.q) && (
        <button
          type="button"
          aria-label="Clear search"
          className="absolute top-1/2 right-4 inline-flex size-7 -translate-y-1/2 cursor-pointer items-center justify-center rounded-sm text-muted-foreground hover:bg-muted sm:right-5"
          onClick={() => {
            setText('')
            if (view.q) search(undefined)
          }}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </form>
  )
}

/** Which accounts a search left out (their servers were down or too slow), under the search box. */
export function UnsearchedNotice({ accounts }: { accounts: UnsearchedAccountView[] | undefined }) {
  if (!accounts?.length) return null
  return (
    <div role="status" className="border-b border-border bg-muted/50 px-3 py-2 text-xs text-muted-foreground" data-testid="unsearched">
      {accounts.map((a) => (
        <p key={a.providerId}>Message bodies in {a.email} were not searched: {a.reason}. Subjects, senders and recipients were.</p>
      ))}
    </div>
  )
}
