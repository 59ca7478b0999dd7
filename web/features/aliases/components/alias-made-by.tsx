import type { AliasView } from '../../../../shared/alias-schemas.ts'

/**
 * "made for shop.example by an app": the alias came through an API key (issue 28); "made on first
 * use": the first message to it made it (a catch-all or the personal subdomain, issue 29).
 */
export function AliasMadeBy({ alias }: { alias: Pick<AliasView, 'madeBy' | 'hostname'> }) {
  if (!alias.madeBy) return null
  if (alias.madeBy === 'catch-all' || alias.madeBy === 'subdomain') {
    return (
      <span className="text-xs text-muted-foreground" data-testid="alias-made-by">
        made on first use ({alias.madeBy === 'catch-all' ? 'catch-all' : 'your subdomain'})
      </span>
    )
  }
  return (
    <span className="text-xs text-muted-foreground" data-testid="alias-made-by">
      {alias.hostname ? <>made for <span className="font-medium">{alias.hostname}</span> by an app</> : 'made by an app'}
    </span>
  )
}
