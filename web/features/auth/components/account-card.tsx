import type { ReactNode } from 'react'
import { Card } from '../../../components/ui/card.tsx'

/** The centred card on a faint grid that every sign-in and account-link page sits in. */
export function AccountCard({ eyebrow, title, subtitle, children }: { eyebrow: string; title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="relative flex min-h-[calc(100vh-4rem)] items-center justify-center overflow-hidden px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] bg-[size:40px_40px] opacity-40 [mask-image:radial-gradient(ellipse_at_center,black_20%,transparent_70%)]"
      />
      <Card className="relative w-full max-w-md p-6 sm:p-8">
        <div className="mb-6 space-y-2 text-center">
          <p className="font-mono text-xs tracking-widest text-primary">{eyebrow}</p>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {subtitle && <p className="text-sm text-muted-foreground">{subtitle}</p>}
        </div>
        {children}
      </Card>
    </div>
  )
}
