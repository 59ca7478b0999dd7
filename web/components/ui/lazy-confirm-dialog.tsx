import { lazy, type ComponentProps } from 'react'
import { OnceOpened } from './once-opened.tsx'

const ConfirmDialog = lazy(() => import('./confirm-dialog.tsx').then((m) => ({ default: m.ConfirmDialog })))

/** The confirm dialog, its code loaded at its first opening: for pages that seldom ask (the inbox list, before a delete for good). */
export function LazyConfirmDialog(props: ComponentProps<typeof ConfirmDialog>) {
  return (
    <OnceOpened open={props.open}>
      <ConfirmDialog {...props} />
    </OnceOpened>
  )
}
