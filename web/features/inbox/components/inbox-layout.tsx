import { useEffect, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { PanelLeftOpen, X } from 'lucide-react'
import { DESKTOP_QUERY, useMediaQuery } from '../../../hooks/use-media-query.ts'
import { InboxComposeContext, NEW_EMAIL, type ComposeRequest } from './inbox-compose-context.ts'
import { InboxPartsContext, type InboxParts } from './inbox-parts.ts'
import { InboxSidebar } from './inbox-sidebar.tsx'
import { ShortcutKeys } from './shortcut-keys.tsx'
import { ShortcutsDialog } from './shortcuts-dialog.tsx'
import { useMailEvents } from '../api/mail-events.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { cn } from '../../../lib/cn.ts'

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
          <DialogPrimitive.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
            {/* Sticky at the end of the page's content, in a space of its own: it floats over the
                list while scrolling, never over the footer, and the last rows scroll clear of it.
                On the right, over the rows' dates, never over their checkboxes. */}
            <div className="pointer-events-none sticky bottom-0 z-30 mx-auto flex w-full max-w-6xl justify-end px-4 pb-5 sm:px-6">
              <DialogPrimitive.Trigger
                aria-label="Open mailboxes"
                className="pointer-events-auto inline-flex size-12 cursor-pointer items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg"
              >
                <PanelLeftOpen className="size-5" aria-hidden="true" />
              </DialogPrimitive.Trigger>
            </div>
            <DialogPrimitive.Portal>
              <DialogPrimitive.Overlay data-testid="drawer-overlay" className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in" />
              <DialogPrimitive.Content
                aria-describedby={undefined}
                className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto border-r border-border bg-background p-4 shadow-2xl"
              >
                <div className="mb-3 flex items-center justify-between">
                  <DialogPrimitive.Title className="font-mono text-sm font-semibold">_INBOX</DialogPrimitive.Title>
                  <DialogPrimitive.Close aria-label="Close mailboxes" className="cursor-pointer rounded-sm p-1 text-muted-foreground hover:bg-muted">
                    <X className="size-4" aria-hidden="true" />
                  </DialogPrimitive.Close>
                </div>
                <InboxSidebar />
              </DialogPrimitive.Content>
            </DialogPrimitive.Portal>
          </DialogPrimitive.Root>
        )}
        <parts.ComposeDialog request={compose} onClose={() => setCompose(undefined)} />
        <ShortcutKeys on={{ compose: () => openCompose(NEW_EMAIL), search: () => searchBox()?.focus(), help: () => setHelp({ searchBox: searchBox() !== null }) }} />
        <ShortcutsDialog open={help !== undefined} onOpenChange={(open) => !open && setHelp(undefined)} searchBox={help?.searchBox ?? false} />
      </InboxComposeContext.Provider>
    </InboxPartsContext.Provider>
  )
}
