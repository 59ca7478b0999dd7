import { Switch } from '../../../components/ui/switch.tsx'
import type { AliasRowState } from './use-alias-row.ts'

/** On only when active and not paused; flipping it pauses or resumes forwarding. */
export function AliasStatusSwitch({ row, address }: { row: AliasRowState; address: string }) {
  return (
    <div className="flex items-center gap-2">
      <Switch
        checked={row.on}
        onCheckedChange={row.toggleActive}
        disabled={row.toggling}
        aria-label={`Forwarding for ${address}`}
      />
      <span className={row.on ? 'text-xs font-medium text-primary' : 'text-xs font-medium text-muted-foreground'}>
        {row.on ? 'Active' : 'Paused'}
      </span>
    </div>
  )
}
