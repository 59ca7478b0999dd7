import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { aliasAddress, formatCreated } from '../lib/alias-state.ts'
import { AliasAddress } from './alias-address.tsx'
import { AliasMadeBy } from './alias-made-by.tsx'
import { AliasCounters } from './alias-counters.tsx'
import { AliasDetails } from './alias-details.tsx'
import { AliasEditHint, AliasEditInput } from './alias-edit-input.tsx'
import { AliasRowActions } from './alias-row-actions.tsx'
import { AliasStatusSwitch } from './alias-status-switch.tsx'
import { AliasTargets as AliasTargetsCell } from './alias-targets.tsx'
import { DeleteAliasDialog } from './delete-alias-dialog.tsx'
import { useAliasRow } from './use-alias-row.ts'

export function AliasTableRow({ alias, userId }: { alias: AliasView; userId: string }) {
  const row = useAliasRow(alias, userId)
  const address = aliasAddress(alias)
  return (
    <>
      <tr className="border-b border-border align-top last:border-0 hover:bg-muted/30" data-testid="alias-row" data-alias={address}>
        <td className="w-[30%] min-w-56 py-3 pl-4 pr-3">
          {row.editing ? (
            <div className="grid gap-1">
              <div className="flex items-center gap-1">
                <AliasEditInput row={row} field="alias" autoFocus />
                <span className="shrink-0 font-mono text-xs text-muted-foreground">@{alias.domain}</span>
              </div>
              <AliasEditHint row={row} />
            </div>
          ) : (
            <div className="grid gap-1.5">
              <AliasAddress name={alias.alias} domain={alias.domain} />
              <AliasMadeBy alias={alias} />
              <AliasCounters counters={alias.counters} />
            </div>
          )}
        </td>
        <td className="w-[26%] min-w-52 px-3 py-3">
          {row.editing ? <AliasEditInput row={row} field="forwardTo" /> : <AliasTargetsCell alias={alias} />}
        </td>
        <td className="min-w-32 px-3 py-3 text-sm">
          {row.editing ? (
            <AliasEditInput row={row} field="notes" placeholder="Add a note" />
          ) : (
            <span className="line-clamp-2 break-words text-muted-foreground" title={alias.notes ?? undefined}>
              {alias.notes || '—'}
            </span>
          )}
        </td>
        <td className="hidden whitespace-nowrap px-3 py-3 text-sm text-muted-foreground xl:table-cell">
          <time dateTime={alias.createdAt}>{formatCreated(alias.createdAt)}</time>
        </td>
        <td className="px-3 py-2.5">
          <AliasRowActions row={row} compact />
        </td>
        <td className="whitespace-nowrap py-3 pl-3 pr-4">
          <AliasStatusSwitch row={row} address={address} />
        </td>
      </tr>
      {row.expanded && (
        <tr className="border-b border-border bg-muted/20">
          <td colSpan={6} className="px-4 py-4">
            <AliasDetails alias={alias} />
          </td>
        </tr>
      )}
      <DeleteAliasDialog row={row} address={address} />
    </>
  )
}
