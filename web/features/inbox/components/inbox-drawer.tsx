import { Dialog as DialogPrimitive } from 'radix-ui'
import { PanelLeftOpen, X } from 'lucide-react'
import { InboxSidebar } from './inbox-sidebar.tsx'

/**
 * Below 1024 px the sidebar is this slide-over drawer, opened by a floating button. Its own chunk:
 * a desktop never renders it, so never loads the dialog code with the inbox.
 */
export function InboxDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
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
  )
}
