// The inbox's compose dialog and age-block widget load on first use, not with the list: most
// visits to /inbox never compose or meet an age block, and their code (the compose form, the
// decrypt forms) was a fifth of the page's JavaScript.
import { lazy, Suspense } from 'react'
import { OnceOpened } from '../../components/ui/once-opened.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import type { InboxParts } from '../../features/inbox/components/inbox-parts.ts'

const loadComposeDialog = () => import('./compose-dialog.tsx')
const ComposeDialog = lazy(() => loadComposeDialog().then((m) => ({ default: m.ComposeDialog })))
const EncryptedBlock = lazy(() => import('./encrypted-block.tsx').then((m) => ({ default: m.EncryptedBlock })))

export const LazyComposeDialog: InboxParts['ComposeDialog'] = ({ request, onClose }) => (
  <OnceOpened open={request !== undefined}>
    <ComposeDialog request={request} onClose={onClose} />
  </OnceOpened>
)

export const LazyEncryptedBlock: InboxParts['EncryptedBlock'] = ({ armored }) => (
  <Suspense fallback={<Spinner label="Loading" />}>
    <EncryptedBlock armored={armored} />
  </Suspense>
)

/** The compose dialog's code, fetched ahead (while the page is idle) so a first Compose opens at once. */
export function preloadComposeDialog(): void {
  loadComposeDialog().catch(() => {})
}
