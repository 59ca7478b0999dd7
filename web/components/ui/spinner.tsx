import { LoaderCircle } from 'lucide-react'
import { cn } from '../../lib/cn.ts'

interface SpinnerProps {
  className?: string
  label?: string
  /** Inside a button that already says what is happening: hide it from assistive technology. */
  decorative?: boolean
}

export function Spinner({ className, label = 'Loading', decorative = false }: SpinnerProps) {
  if (decorative) return <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} />
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <LoaderCircle aria-hidden="true" className={cn('size-6 animate-spin text-primary', className)} />
    </span>
  )
}

/** Centered spinner for a whole page area; `code`: the fallback of a page whose code is on its way (Suspense). */
export function PageSpinner({ code = false }: { code?: boolean } = {}) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" data-waiting-for={code ? 'code' : undefined}>
      <Spinner className="size-8" />
    </div>
  )
}
