import { Mail, Server } from 'lucide-react'
import type { ProviderKind } from '../../../../shared/email-provider-schemas.ts'
import { cn } from '../../../lib/cn.ts'
import { PROVIDER_LABELS } from '../lib/account-status.ts'

/** The provider buttons and their captions (Outlook only when the server offers it). */
const CHOICES: { provider: ProviderKind; caption?: string }[] = [
  { provider: 'gmail', caption: 'Requires app password' },
  { provider: 'outlook', caption: 'OAuth2 authentication' },
  { provider: 'yahoo' },
  { provider: 'other', caption: 'Manual server setup' },
]

interface ProviderPickerProps {
  value: ProviderKind
  onChange: (provider: ProviderKind) => void
  outlookEnabled: boolean
}

export function ProviderPicker({ value, onChange, outlookEnabled }: ProviderPickerProps) {
  const choices = CHOICES.filter((c) => c.provider !== 'outlook' || outlookEnabled)
  return (
    <div role="group" aria-label="Email provider" className={cn('grid grid-cols-2 gap-3', choices.length === 4 ? 'md:grid-cols-4' : 'md:grid-cols-3')}>
      {choices.map(({ provider, caption }) => {
        const Icon = provider === 'other' ? Server : Mail
        const selected = value === provider
        return (
          <button
            key={provider}
            type="button"
            aria-pressed={selected}
            data-provider={provider}
            onClick={() => onChange(provider)}
            className={cn(
              'flex min-w-0 cursor-pointer flex-col items-start gap-1 rounded-lg border p-3 text-left transition-colors sm:p-4',
              'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/30',
              selected ? 'border-primary bg-primary/5 ring-1 ring-primary' : 'border-border bg-card hover:bg-muted',
            )}
          >
            <span className="flex items-center gap-2 font-medium">
              <Icon className={cn('size-4 shrink-0', selected ? 'text-primary' : 'text-muted-foreground')} aria-hidden="true" />
              {PROVIDER_LABELS[provider]}
            </span>
            {caption && <span className="text-xs text-muted-foreground">{caption}</span>}
          </button>
        )
      })}
    </div>
  )
}
