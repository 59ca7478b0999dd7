import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { OnceOpened } from '../../../components/ui/once-opened.tsx'
import { DESKTOP_QUERY, useMediaQuery } from '../../../hooks/use-media-query.ts'
import { InboxComposeContext, NEW_EMAIL, type ComposeRequest } from './inbox-compose-context.ts'
import { InboxPartsContext, type InboxParts } from './inbox-parts.ts'
import { InboxSidebar } from './inbox-sidebar.tsx'
import { ShortcutKeys } from './shortcut-keys.tsx'
import { useMailEvents } from '../api/mail-events.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { cn } from '../../../lib/cn.ts'

// the drawer (below 1024 px) and the "?" list load when shown: their dialog code is not the list's
const InboxDrawer = lazy(() => import('./inbox-drawer.tsx').then((m) => ({ default: m.InboxDrawer })))
const ShortcutsDialog = lazy(() => import('./shortcuts-dialog.tsx').then((m) => ({ default: m.ShortcutsDialog })))

/**
 * The inbox's frame for the list and the detail: the sidebar beside them on a desktop, a
 * slide-over drawer below 1024 px, where a fixed sidebar would squeeze the list, that closes when a message or settings opens.
 */
export function InboxLayout({ parts, children }: { parts: InboxParts; children: ReactNode }) {
  const desktop = useMediaQuery(DESKTOP_QUERY)
  // new mail shows without a reload while any inbox page is open
  useMailEvents(useAuth().user?.id)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [compose, setCompose] = useState<ComposeRequest>()
  const { pathname, search } = useLocation()
  useEffect(() => setDrawerOpen(false), [pathname, search])

  const openCompose = (request: ComposeRequest) => {
    setDrawerOpen(false)
    setCompose(request)
  }
  // "/" focuses the inbox's search box when the page has one; the "?" list names "/" only then
  const searchBox = () => document.querySelector<HTMLInputElement>('input[type="search"], [role="searchbox"]')
  const [help, setHelp] = useState<{ searchBox: boolean }>()

  return (
    <InboxPartsContext.Provider value={parts}>
      <InboxComposeContext.Provider value={openCompose}>
        {/* Below 1024 px at least a screen high, so the drawer's button below it sits at the bottom of the screen on a short list too, the footer below the fold */}
        <div className={cn('mx-auto flex w-full max-w-6xl flex-1 gap-6 px-4 py-6 sm:px-6 lg:py-8', !desktop && 'min-h-dvh')}>
          {desktop && (
            <aside aria-label="Mailboxes" className="w-60 shrink-0 print:hidden">
              <InboxSidebar />
            </aside>
          )}
          <div className="min-w-0 flex-1">{children}</div>
        </div>
        {!desktop && (
          <Suspense fallback={null}>
            <InboxDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
          </Suspense>
        )}
        <parts.ComposeDialog request={compose} onClose={() => setCompose(undefined)} />
        <ShortcutKeys on={{ compose: () => openCompose(NEW_EMAIL), search: () => searchBox()?.focus(), help: () => setHelp({ searchBox: searchBox() !== null }) }} />
        <OnceOpened open={help !== undefined}>
          <ShortcutsDialog open={help !== undefined} onOpenChange={(open) => !open && setHelp(undefined)} searchBox={help?.searchBox ?? false} />
        </OnceOpened>
      </InboxComposeContext.Provider>
    </InboxPartsContext.Provider>
  )
}
