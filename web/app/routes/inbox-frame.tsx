import { Suspense } from 'react'
import { Outlet } from 'react-router-dom'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { InboxLayout } from '../../features/inbox/components/inbox-layout.tsx'
import { inboxParts } from '../inbox/inbox-parts.ts'

/**
 * /inbox and the pages under it: the frame (sidebar, drawer, compose dialog, the live stream of new
 * mail) stays mounted while the list, a message and the settings take turns in it, so opening a
 * message renders the message alone instead of the whole inbox again and keeps the stream open.
 */
export function InboxFrameRoute() {
  return (
    <InboxLayout parts={inboxParts}>
      <Suspense fallback={<PageSpinner code />}>
        <Outlet />
      </Suspense>
    </InboxLayout>
  )
}
