import { ArrowRight } from 'lucide-react'

/** "alias → target": where a failed forward was going. */
export function AliasRoute({ alias, target }: { alias: string; target: string }) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <span className="font-mono font-medium break-all">{alias}</span>
      <ArrowRight aria-label="to" className="size-3.5 shrink-0 text-muted-foreground" />
      <span className="break-all">{target}</span>
    </p>
  )
}
