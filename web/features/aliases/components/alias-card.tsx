import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { aliasAddress, formatCreated } from '../lib/alias-state.ts'
import { AliasAddress } from './alias-address.tsx'
import { AliasMadeBy } from './alias-made-by.tsx'
import { AliasCounters } from './alias-counters.tsx'
import { AliasDetails } from './alias-details.tsx'
import { AliasEditHint, AliasEditInput } from './alias-edit-input.tsx'
import { AliasRowActions } from './alias-row-actions.tsx'
import { AliasStatusSwitch } from './alias-status-switch.tsx'
import { AliasTargets } from './alias-targets.tsx'
import { DeleteAliasDialog } from './delete-alias-dialog.tsx'
import { useAliasRow } from './use-alias-row.ts'

const FIELD_LABEL = 'text-xs font-medium uppercase tracking-wide text-muted-foreground'

/** Mobile layout (< 1024px): one card per alias with the same fields and actions as a table row. */
export function AliasCard({ alias, userId }: { alias: AliasView; userId: string }) {
  const row = useAliasRow(alias, userId)
  const address = aliasAddress(alias)
  return (
    <li className="grid gap-3 rounded-lg border border-border bg-card p-4" data-testid="alias-row" data-alias={address}>
      {row.editing ? (
        <div className="grid gap-3">
          <div className="grid gap-1.5">
            <span className={FIELD_LABEL}>Alias</span>
            <div className="flex items-center gap-1">
              <AliasEditInput row={row} field="alias" autoFocus />
              <span className="shrink-0 font-mono text-xs text-muted-foreground">@{alias.domain}</span>
            </div>
          </div>
          <div className="grid gap-1.5">
            <span className={FIELD_LABEL}>Forwards To</span>
            <AliasEditInput row={row} field="forwardTo" />
          </div>
          <div className="grid gap-1.5">
            <span className={FIELD_LABEL}>Notes</span>
            <AliasEditInput row={row} field="notes" placeholder="Add a note" />
          </div>
          <AliasEditHint row={row} />
        </div>
      ) : (
        <>
          <div className="flex items-start justify-between gap-3">
            <div className="grid min-w-0 gap-1.5">
              <AliasAddress name={alias.alias} domain={alias.domain} />
              <AliasMadeBy alias={alias} />
              <AliasCounters counters={alias.counters} />
            </div>
            <AliasStatusSwitch row={row} address={address} />
          </div>
          <div className="grid gap-1">
            <span className={FIELD_LABEL}>Forwards To</span>
            <AliasTargets alias={alias} />
          </div>
          {alias.notes && (
            <div className="grid gap-1">
              <span className={FIELD_LABEL}>Notes</span>
              <p className="break-words text-sm text-muted-foreground">{alias.notes}</p>
            </div>
          )}
          <p className="text-xs text-muted-foreground">
            Created <time dateTime={alias.createdAt}>{formatCreated(alias.createdAt)}</time>
          </p>
        </>
      )}
      <AliasRowActions row={row} compact={false} />
      {row.expanded && !row.editing && <AliasDetails alias={alias} />}
      <DeleteAliasDialog row={row} address={address} />
    </li>
  )
}
