import { cn } from '../lib/cn.ts'
import { useTheme } from './theme/theme-context.ts'

const VARIANT_COLORS = {
  light: { tile: '#0b1110', fold: '#34d399', body: '#f4f7f6' },
  dark: { tile: '#e6ecea', fold: '#047857', body: '#0b1110' },
} as const

/** The Veilmail mark and wordmark; the mark inverts with the theme. */
export function Logo({ className, showWordmark = true }: { className?: string; showWordmark?: boolean }) {
  const { resolvedTheme } = useTheme()
  const colors = VARIANT_COLORS[resolvedTheme]
  return (
    <span className={cn('inline-flex items-center gap-2', className)} data-variant={resolvedTheme} data-testid="logo">
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={colors.tile} />
        <path
          d="M7 10v11.5A1.5 1.5 0 0 0 8.5 23h15a1.5 1.5 0 0 0 1.5-1.5V10"
          fill="none"
          stroke={colors.body}
          strokeWidth="2.4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <path d="M7 10.5 16 17l9-6.5" fill="none" stroke={colors.fold} strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {showWordmark && <span className="font-mono text-lg font-bold tracking-tight">Veilmail</span>}
    </span>
  )
}
