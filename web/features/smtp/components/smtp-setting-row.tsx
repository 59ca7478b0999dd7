import type { ReactNode } from 'react'
import { SmtpCopyButton } from './smtp-copy-button.tsx'

export const SETTING_VALUE = 'min-w-0 break-all rounded-md border border-border bg-card px-2.5 py-1 font-mono text-xs'

interface SmtpSettingRowProps {
  label: string
  value: string
  /** How mail apps name the setting, shown after the copy button. */
  hint?: string
  testId?: string
  /** Extra controls after the copy button (the password's Reveal and Regenerate). */
  children?: ReactNode
}

/** One line of a description list: label, the value in monospace, a copy button. */
export function SmtpSettingRow({ label, value, hint, testId, children }: SmtpSettingRowProps) {
  return (
    <div className="grid gap-1 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:items-center sm:gap-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        <code className={SETTING_VALUE} data-testid={testId}>
          {value}
        </code>
        <SmtpCopyButton value={value} what={label} />
        {hint && <span className="text-xs text-muted-foreground">{hint}</span>}
        {children}
      </dd>
    </div>
  )
}
