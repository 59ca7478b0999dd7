import { MailWarning, X } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useBounces, useDismissBounceNotice } from '../api/bounces.ts'

/**
 * The dashboard's bounce notice (issue 30), the one mailed at most once a day: per alias and
 * target, the receiving server's code and reason, and whether forwards to the target stopped; and
 * a reply through a reverse alias that the contact's server refused (shown at once).
 */
export function BounceNotice() {
  const bounces = useBounces()
  const dismiss = useDismissBounceNotice()
  const notices = bounces.data?.notices ?? []
  if (notices.length === 0) return null
  return (
    <section aria-labelledby="bounce-notice" className="grid gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-4" data-testid="bounce-notice">
      <div className="flex items-center gap-2">
        <MailWarning aria-hidden="true" className="size-4 text-destructive" />
        <h2 id="bounce-notice" className="text-sm font-semibold">Mail was refused</h2>
      </div>
      {notices.map((notice) => (
        <div key={notice.id} className="grid gap-1.5">
          <ul className="grid gap-1 text-sm">
            {notice.entries.map((e) => (
              <li key={`${e.alias} ${e.target}`} className="[overflow-wrap:anywhere]">
                {e.reply && 'Your reply from '}<span className="font-medium">{e.alias}</span>{e.reply ? ' to ' : ' → '}<span className="font-medium">{e.target}</span>: {e.reason}
                {e.count > 1 ? ` (${e.count} times)` : ''}
                {e.disabled && <span className="text-destructive"> · forwards to this address are stopped</span>}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
            <span>{new Date(notice.createdAt).toLocaleString()} · also sent by mail{notice.entries.every((e) => e.reply) ? '' : '; at most one notice of refused forwards a day'}</span>
            <Button variant="ghost" size="sm" disabled={dismiss.isPending} aria-label="Dismiss bounce notice"
              onClick={() => dismiss.mutate(notice.id, { onError: (error) => toast({ title: 'Failed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }) })}>
              <X aria-hidden="true" />Dismiss
            </Button>
          </div>
        </div>
      ))}
    </section>
  )
}
