import { Toast } from 'radix-ui'
import { CircleAlert, CircleCheck, X } from 'lucide-react'
import { cn } from '../../lib/cn.ts'
import {
  dismissToast,
  TOAST_DESTRUCTIVE_DURATION_MS,
  TOAST_DURATION_MS,
  useToasts,
} from './use-toast.ts'

/** Renders the toast store with radix-ui Toast. Mount once, near the root. */
export function Toaster() {
  const toasts = useToasts()
  return (
    <Toast.Provider swipeDirection="right" swipeThreshold={50} duration={TOAST_DURATION_MS}>
      {toasts.map((t) => {
        const destructive = t.variant === 'destructive'
        const Icon = destructive ? CircleAlert : CircleCheck
        return (
          <Toast.Root
            key={t.id}
            open={t.open}
            onOpenChange={(open) => !open && dismissToast(t.id)}
            duration={destructive ? TOAST_DESTRUCTIVE_DURATION_MS : TOAST_DURATION_MS}
            data-testid="toast"
            data-variant={t.variant ?? 'default'}
            className={cn(
              'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-lg border p-4 pr-10 text-[14px] shadow-lg',
              'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out',
              'data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-swipe-out',
              destructive
                ? 'border-destructive bg-destructive text-destructive-foreground'
                : 'border-border bg-card text-card-foreground',
            )}
          >
            <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', destructive ? '' : 'text-primary')} />
            <div className="grid flex-1 gap-1">
              <Toast.Title className="font-semibold">{t.title}</Toast.Title>
              {t.description && (
                <Toast.Description className={destructive ? 'opacity-95' : 'text-muted-foreground'}>
                  {t.description}
                </Toast.Description>
              )}
            </div>
            {t.action && (
              <Toast.Action
                altText={t.action.altText}
                onClick={t.action.onClick}
                className={cn(
                  'inline-flex h-8 shrink-0 cursor-pointer items-center self-center rounded-md border px-3 text-xs font-medium transition-colors',
                  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/30',
                  destructive ? 'border-white/40 hover:bg-white/15' : 'border-input bg-card hover:bg-muted',
                )}
              >
                {t.action.label}
              </Toast.Action>
            )}
            <Toast.Close
              aria-label="Close"
              className={cn(
                'absolute right-2 top-2 cursor-pointer rounded-md p-1 opacity-70 transition-opacity hover:opacity-100',
                destructive ? 'hover:bg-white/15' : 'hover:bg-muted',
              )}
            >
              <X className="size-4" aria-hidden="true" />
            </Toast.Close>
          </Toast.Root>
        )
      })}
      <Toast.Viewport
        hotkey={['F8']}
        className="fixed bottom-0 right-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none sm:bottom-4 sm:right-4 sm:p-0"
      />
    </Toast.Provider>
  )
}
