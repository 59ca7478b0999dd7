import { useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Clock, Mail, MailWarning, PauseCircle, Webhook } from 'lucide-react'
import type { AliasView, ForwardTargetView } from '../../../../shared/alias-schemas.ts'
import { isWebhookUrl, splitTargets } from '../../../../shared/alias-target-rules.ts'
import { toast } from '../../../components/ui/use-toast.ts'
import { accountMailErrorToast } from '../../../lib/rate-limit-toast.ts'
import { forwardTargetsQueryKey, reenableTarget, resendTargetConfirmation, sendTargetTestMail, useForwardTargets, useTargetTestMail } from '../api/forward-targets.ts'
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
          const state = webhook || !states ? undefined : (states.get(target.toLowerCase()) ?? { email: target.toLowerCase(), confirmed: false, held: 0, bounces: 0, disabled: false, lastBounce: null })
          return (
            <li key={target} className="grid min-w-0 gap-0.5 text-sm" data-testid="forward-target" data-target={target.toLowerCase()} data-confirmed={state ? String(state.confirmed) : undefined} data-stopped={state ? String(state.disabled) : undefined}>
              <span className="flex min-w-0 items-start gap-1.5">
                <Icon aria-hidden="true" className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" />
                <span className="min-w-0 [overflow-wrap:anywhere]">{target}</span>
              </span>
              {state && !state.confirmed && <AwaitingConfirmation target={state} />}
              {state?.confirmed && state.disabled && <StoppedForBounces target={state} userId={alias.userId} />}
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

/**
 * Issue 30: a target stopped after hard bounces in a row; a test mail it takes, or Re-enable,
 * starts it again. The test mail is queued for the delivery process and polled until the relay
 * took or refused it ("Sending..." meanwhile), or until the server says it is still queued (no
 * delivery process took it: it may not be running), when polling stops.
 */
function StoppedForBounces({ target, userId }: { target: ForwardTargetView; userId: string }) {
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const [testJobId, setTestJobId] = useState<string>()
  const testMail = useTargetTestMail(testJobId)
  const outcome = testMail.data?.status === 'sending' ? undefined : testMail.data
  const pollFailed = testMail.isError
  useEffect(() => {
    if (!testJobId || (!outcome && !pollFailed)) return
    if (outcome?.status === 'queued') {
      toast({ title: 'Test Mail Still Queued', description: outcome.message })
    } else if (outcome) {
      const failed = outcome.status !== 'taken'
      toast({ title: failed ? 'Test Mail Refused' : 'Forwarding Resumed', description: outcome.message, variant: failed ? 'destructive' : undefined })
    } else {
      toast({ title: 'Test Mail Failed', description: 'Its outcome could not be read. Please try again later.', variant: 'destructive' })
    }
    setTestJobId(undefined)
    void queryClient.invalidateQueries({ queryKey: forwardTargetsQueryKey(userId) })
  }, [testJobId, outcome, pollFailed, queryClient, userId])
  const sendingTest = testJobId !== undefined

  async function act(what: 'test' | 'enable') {
    setBusy(true)
    try {
      if (what === 'test') {
        setTestJobId((await sendTargetTestMail(target.email)).jobId)
        return
      }
      toast({ title: 'Forwarding Resumed', description: (await reenableTarget(target.email)).message })
      await queryClient.invalidateQueries({ queryKey: forwardTargetsQueryKey(userId) })
    } catch (error) {
      toast(accountMailErrorToast(error, what === 'test' ? 'Test Mail Failed' : 'Re-enable Failed'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <span className="grid gap-0.5 pl-5 text-xs text-red-700 dark:text-red-400">
      <span className="flex items-start gap-1.5" data-testid="target-stopped">
        <MailWarning aria-hidden="true" className="mt-0.5 size-3 shrink-0" />
        <span className="min-w-0 [overflow-wrap:anywhere]">
          Stopped after {target.bounces} bounces in a row{target.lastBounce ? `: ${target.lastBounce.reason}` : ''}{target.held > 0 ? ` · ${target.held} held` : ''}
        </span>
      </span>
      <span className="flex flex-wrap gap-x-3 pl-4">
        <button type="button" className="font-medium text-primary underline-offset-2 hover:underline disabled:opacity-50" disabled={busy || sendingTest} onClick={() => void act('test')}>
          {sendingTest ? 'Sending...' : 'Send a test mail'}
        </button>
        <button type="button" className="font-medium text-primary underline-offset-2 hover:underline disabled:opacity-50" disabled={busy || sendingTest} onClick={() => void act('enable')}>
          Re-enable
        </button>
      </span>
    </span>
  )
}
