import { lazy } from 'react'
import { OnceOpened } from './once-opened.tsx'
import { useToasts } from './use-toast.ts'

const Toaster = lazy(() => import('./toaster.tsx').then((m) => ({ default: m.Toaster })))

/**
 * The toaster from the first toast on: its code (radix-ui Toast) loads then, not with every page.
 * A toast raised meanwhile waits in the store and shows once it has loaded.
 */
export function LazyToaster() {
  return (
    <OnceOpened open={useToasts().length > 0}>
      <Toaster />
    </OnceOpened>
  )
}
