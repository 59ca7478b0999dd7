import { MailX, Undo2, X } from 'lucide-react'
import type { UnsubscribeEventView } from '../../../../shared/sender-block-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useCloseUnsubscribeEvent } from '../api/close-unsubscribe-event.ts'
import { useUnsubscribeEvents } from '../api/get-unsubscribe-events.ts'

const VIA: Record<UnsubscribeEventView['via'], string> = { 'one-click': "your mail client's Unsubscribe", link: 'a link in a forward', mailto: 'an unsubscribe e-mail' }

function what(event: UnsubscribeEventView): string {
  return event.action === 'pause' ? `${event.alias} was paused by ${VIA[event.via]}.` : `${event.contact ?? 'A sender'} was blocked on ${event.alias} by ${VIA[event.via]}.`
}

/** The dashboard's notice (issue 30): what unsubscribe and block links did without a sign-in, each with Undo. */
export function UnsubscribeNotice() {
  const events = useUnsubscribeEvents()
  const close = useCloseUnsubscribeEvent()
  if (!events.data?.length) return null

  function act(event: UnsubscribeEventView, undo: boolean) {
    close.mutate({ id: event.id, undo }, {
      onSuccess: () => undo && toast({ title: 'Undone', description: event.action === 'pause' ? `${event.alias} forwards again.` : `${event.contact} is no longer blocked.` }),
      onError: (error) => toast({ title: 'Failed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
    })
  }

  return (
    <section aria-labelledby="unsubscribe-notice" className="grid gap-2 rounded-lg border border-primary/40 bg-primary/5 p-4" data-testid="unsubscribe-notice">
      <div className="flex items-center gap-2">
        <MailX aria-hidden="true" className="size-4 text-primary" />
        <h2 id="unsubscribe-notice" className="text-sm font-semibold">Unsubscribed from your mailbox</h2>
      </div>
      <ul className="grid gap-2">
        {events.data.map((event) => (
          <li key={event.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>{what(event)} <span className="text-muted-foreground">{new Date(event.createdAt).toLocaleString()}</span></span>
            <span className="flex gap-2">
              <Button variant="outline" size="sm" onClick={() => act(event, true)} disabled={close.isPending}><Undo2 aria-hidden="true" />Undo</Button>
              <Button variant="ghost" size="sm" onClick={() => act(event, false)} disabled={close.isPending} aria-label="Dismiss"><X aria-hidden="true" />Dismiss</Button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
