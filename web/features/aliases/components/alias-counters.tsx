import { Ban, Forward, Reply, ShieldAlert, TriangleAlert, type LucideIcon } from 'lucide-react'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { Tooltip } from '../../../components/ui/tooltip.tsx'
import { cn } from '../../../lib/cn.ts'

type CounterName = keyof AliasView['counters']

const COUNTERS: { name: CounterName; label: string; hint: string; icon: LucideIcon }[] = [
  { name: 'forwarded', label: 'forwarded', hint: 'Messages forwarded to your targets', icon: Forward },
  { name: 'replied', label: 'replied', hint: 'Anonymous replies sent through this alias', icon: Reply },
  { name: 'dropped', label: 'dropped', hint: 'Messages dropped while the alias was paused', icon: Ban },
  { name: 'spam', label: 'dropped as spam', hint: 'Messages dropped as spam (the alias drops what the spam filter calls spam)', icon: ShieldAlert },
  { name: 'failed', label: 'failed', hint: 'Deliveries that failed for good (the last 30 days, with the reason, are under Undelivered)', icon: TriangleAlert },
]

/** The alias's only mail records (zero-logs policy): five counts as small chips. */
export function AliasCounters({ counters }: { counters: AliasView['counters'] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Mail counters" data-testid="alias-counters">
      {COUNTERS.map(({ name, label, hint, icon: Icon }) => {
        const value = counters[name]
        return (
          <li key={name}>
            <Tooltip content={`${hint}: ${value}`}>
              <span
                className={cn(
                  'inline-flex items-center gap-1 rounded-full border px-1.5 py-0.5 font-mono text-[11px] leading-none tabular-nums',
                  name === 'failed' && value > 0
                    ? 'border-destructive/40 bg-destructive/10 text-destructive'
                    : value > 0
                      ? 'border-border bg-muted text-foreground'
                      : 'border-border text-muted-foreground',
                )}
              >
                <Icon aria-hidden="true" className="size-3" />
                {value.toLocaleString()}
                <span className="sr-only"> {label}</span>
              </span>
            </Tooltip>
          </li>
        )
      })}
    </ul>
  )
}
