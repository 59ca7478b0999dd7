import { Mail, PauseCircle, Webhook } from 'lucide-react'
import type { AliasView } from '../../../../api/aliases/alias-schemas.ts'
import { isWebhookUrl, splitTargets } from '../../../../lib/alias-target-rules.ts'
import { aliasTargets, isAliasOn, PAUSED_MESSAGE } from '../lib/alias-state.ts'

/** Where mail goes: each e-mail or webhook target, or the paused notice with the kept targets. */
export function AliasTargets({ alias }: { alias: AliasView }) {
  const targets = splitTargets(aliasTargets(alias))
  const on = isAliasOn(alias)
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
          const Icon = isWebhookUrl(target) ? Webhook : Mail
          return (
            <li key={target} className="flex min-w-0 items-start gap-1.5 text-sm">
              <Icon aria-hidden="true" className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" />
              <span className="min-w-0 [overflow-wrap:anywhere]">{target}</span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
