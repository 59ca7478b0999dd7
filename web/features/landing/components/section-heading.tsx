import type { ReactNode } from 'react'
import { cn } from '../../../lib/cn.ts'

interface SectionHeadingProps {
  eyebrow: string
  title: ReactNode
  subtitle?: ReactNode
  id?: string
  className?: string
}

export function SectionHeading({ eyebrow, title, subtitle, id, className }: SectionHeadingProps) {
  return (
    <div className={cn('mx-auto max-w-2xl space-y-3 text-center', className)}>
      <p className="font-mono text-xs font-semibold tracking-widest text-primary">{eyebrow}</p>
      <h2 id={id} className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {subtitle && <p className="text-base text-muted-foreground text-pretty sm:text-lg">{subtitle}</p>}
    </div>
  )
}
