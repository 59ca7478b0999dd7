import type { AliasView } from '../../../../shared/alias-schemas.ts'

/** "made for shop.example by an app": the alias came through an API key (issue 28). */
export function AliasMadeBy({ alias }: { alias: Pick<AliasView, 'madeBy' | 'hostname'> }) {
  if (!alias.madeBy) return null
  return (
    <span className="text-xs text-muted-foreground" data-testid="alias-made-by">
      {alias.hostname ? <>made for <span className="font-medium">{alias.hostname}</span> by an app</> : 'made by an app'}
    </span>
  )
}
