import type { ReactNode } from 'react'
import { Check, ChevronDown, Pencil, Trash2, X } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { Tooltip } from '../../../components/ui/tooltip.tsx'
import { cn } from '../../../lib/cn.ts'
import type { AliasRowState } from './use-alias-row.ts'

interface ActionProps {
  label: string
  onClick: () => void
  children: ReactNode
  /** Cards have room for words; table rows show icons with a tooltip. */
  compact: boolean
  disabled?: boolean
  pressed?: boolean
  className?: string
}

function Action({ label, onClick, children, compact, disabled, pressed, className }: ActionProps) {
  if (!compact) {
    return (
      <Button variant="outline" size="sm" onClick={onClick} disabled={disabled} aria-expanded={pressed} className={className}>
        {children}
        {label}
      </Button>
    )
  }
  return (
    <Tooltip content={label}>
      <Button variant="ghost" size="icon" aria-label={label} onClick={onClick} disabled={disabled} aria-expanded={pressed} className={cn('size-8', className)}>
        {children}
      </Button>
    </Tooltip>
  )
}

/** Edit / Details / Delete, or Save / Cancel while editing. */
export function AliasRowActions({ row, compact }: { row: AliasRowState; compact: boolean }) {
  if (row.editing) {
    return (
      <div className={cn('flex items-center gap-1', compact ? 'flex-nowrap' : 'flex-wrap')}>
        <Action label="Save" onClick={row.save} disabled={row.saving} compact={compact} className="text-primary">
          {row.saving ? <Spinner decorative /> : <Check aria-hidden="true" />}
        </Action>
        <Action label="Cancel" onClick={row.cancelEdit} disabled={row.saving} compact={compact}>
          <X aria-hidden="true" />
        </Action>
      </div>
    )
  }
  return (
    <div className={cn('flex items-center gap-1', compact ? 'flex-nowrap' : 'flex-wrap')}>
      <Action label="Edit" onClick={row.startEdit} compact={compact}>
        <Pencil aria-hidden="true" />
      </Action>
      <Action label="Details" onClick={row.toggleExpanded} pressed={row.expanded} compact={compact}>
        <ChevronDown aria-hidden="true" className={cn('transition-transform', row.expanded && 'rotate-180')} />
      </Action>
      <Action label="Delete" onClick={() => row.setConfirmingDelete(true)} compact={compact} className="text-destructive hover:text-destructive">
        <Trash2 aria-hidden="true" />
      </Action>
    </div>
  )
}
