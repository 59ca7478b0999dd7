import { useState } from 'react'
import { Clock, Mail, PauseCircle, Webhook } from 'lucide-react'
import type { AliasView, ForwardTargetView } from '../../../../shared/alias-schemas.ts'
import { isWebhookUrl, splitTargets } from '../../../../shared/alias-target-rules.ts'
import { toast } from '../../../components/ui/use-toast.ts'
import { accountMailErrorToast } from '../../../lib/rate-limit-toast.ts'
import { resendTargetConfirmation, useForwardTargets } from '../api/forward-targets.ts'
import { aliasTargets, isAliasOn, PAUSED_MESSAGE } from '../lib/alias-state.ts'

/** Where mail goes: each e-mail or webhook target, or the paused notice with the kept targets. */
export function AliasTargets({ alias }: { alias: AliasView }) {
  const targets = splitTargets(aliasTargets(alias))
  const on = isAliasOn(alias)
  const states = useForwardTargets(alias.userId).data
  return (
    <div className="grid min-w-0 gap-1">
      {!on && (
        <p className="flex items-center gap-1.5 text-sm font-medium text-amber-700 dark:text-amber-400">
          <PauseCircle aria-hidden="true" className="size-4 shrink-0 self-start mt-0.5" />
          {PAUSED_MESSAGE}
        </p>
      )}
      <ul className={on ? 'grid gap-0.5' : 'grid gap-0.5 opacity-60'} aria-label={on ? 'Forwards to' : 'Resumes forwarding to'}>
        {targets.map((target) => {
          const webhook = isWebhookUrl(target)
          const Icon = webhook ? Webhook : Mail
          const state = webhook || !states ? undefined : (states.get(target.toLowerCase()) ?? { email: target.toLowerCase(), confirmed: false, held: 0 })
          return (
            <li key={target} className="grid min-w-0 gap-0.5 text-sm" data-testid="forward-target" data-target={target.toLowerCase()} data-confirmed={state ? String(state.confirmed) : undefined}>
              <span className="flex min-w-0 items-start gap-1.5">
                <Icon aria-hidden="true" className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" />
                <span className="min-w-0 [overflow-wrap:anywhere]">{target}</span>
              </span>
              {state && !state.confirmed && <AwaitingConfirmation target={state} />}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/** A target that has not confirmed yet: nothing is forwarded there, its mail is held. */
function AwaitingConfirmation({ target }: { target: ForwardTargetView }) {
  const [sending, setSending] = useState(false)
  async function resend() {
    setSending(true)
    try {
      toast({ title: 'Confirmation Sent', description: (await resendTargetConfirmation(target.email)).message })
    } catch (error) {
      toast(accountMailErrorToast(error, 'Resend Failed'))
    } finally {
      setSending(false)
    }
  }
  return (
    <span className="flex flex-wrap items-center gap-x-2 pl-5 text-xs text-amber-700 dark:text-amber-400">
      <Clock aria-hidden="true" className="size-3 shrink-0" />
      <span data-testid="target-pending">
        Awaiting confirmation{target.held > 0 ? ` · ${target.held} held` : ''}
      </span>
      <button type="button" className="font-medium text-primary underline-offset-2 hover:underline disabled:opacity-50" disabled={sending} onClick={() => void resend()}>
        {sending ? 'Sending...' : 'Resend link'}
      </button>
    </span>
  )
}
