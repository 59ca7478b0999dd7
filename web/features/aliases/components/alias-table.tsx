import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { AliasTableRow } from './alias-table-row.tsx'

const HEAD = 'px-3 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground'

/** Desktop layout (≥ 1024px); the Created column appears from 1280px. */
export function AliasTable({ aliases, userId }: { aliases: AliasView[]; userId: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full border-collapse" aria-label="Your aliases">
        <thead className="border-b border-border bg-muted/50">
          <tr>
            <th scope="col" className={`${HEAD} pl-4`}>Alias</th>
            <th scope="col" className={HEAD}>Forwards To</th>
            <th scope="col" className={HEAD}>Notes</th>
            <th scope="col" className={`${HEAD} hidden xl:table-cell`}>Created</th>
            <th scope="col" className={HEAD}>Actions</th>
            <th scope="col" className={`${HEAD} pr-4`}>Status</th>
          </tr>
        </thead>
        <tbody>
          {aliases.map((alias) => (
            <AliasTableRow key={alias.id} alias={alias} userId={userId} />
          ))}
        </tbody>
      </table>
    </div>
  )
}
