import { Suspense, useState, type ReactNode } from 'react'

/**
 * Renders `children` (a lazily loaded dialog, toaster…) from the first time `open` is true on, and
 * keeps it after, so it can close as it opened: its code loads when first wanted, not with the page.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open)
  if (open && !opened) setOpened(true)
  if (!open && !opened) return null
  return <Suspense fallback={null}>{children}</Suspense>
}
