import type { ComponentProps } from 'react'
import { NOTES_MAX } from '../../../../shared/alias-schemas.ts'
import { Input } from '../../../components/ui/input.tsx'
import { cn } from '../../../lib/cn.ts'
import type { AliasDraft } from '../lib/alias-edit.ts'
import type { AliasRowState } from './use-alias-row.ts'

const LABELS: Record<keyof AliasDraft, string> = { alias: 'Alias', forwardTo: 'Forwards to', notes: 'Notes' }

interface AliasEditInputProps extends Omit<ComponentProps<'input'>, 'value' | 'onChange'> {
  row: AliasRowState
  field: keyof AliasDraft
}

/** One inline-edit field: Enter saves, Escape cancels; marked invalid when a save was refused. */
export function AliasEditInput({ row, field, className, ...props }: AliasEditInputProps) {
  const required = field !== 'notes'
  return (
    <Input
      aria-label={LABELS[field]}
      value={row.draft[field]}
      onChange={(e) => row.changeDraft(field, e.target.value)}
      onKeyDown={row.handleEditKey}
      aria-invalid={required && row.invalid ? true : undefined}
      disabled={row.saving}
      maxLength={field === 'notes' ? NOTES_MAX : undefined}
      autoComplete="off"
      spellCheck={false}
      className={cn('h-8 text-sm', field === 'alias' && 'font-mono', className)}
      {...props}
    />
  )
}

/** Why a save was refused: inline edit needs an alias and an e-mail target. */
export function AliasEditHint({ row }: { row: AliasRowState }) {
  if (!row.invalid) return null
  return (
    <p role="alert" className="text-xs font-medium text-destructive">
      Enter an alias and at least one e-mail address. Webhook-only targets are set when creating an alias.
    </p>
  )
}
