import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx'
import { shortcutHelp } from '../lib/inbox-shortcuts.ts'

/** The "?" dialog: every key the inbox binds, by where it works ("/" only with a search box to focus). */
export function ShortcutsDialog({ open, onOpenChange, searchBox }: { open: boolean; onOpenChange: (open: boolean) => void; searchBox: boolean }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>Single keys, while you are not typing in a field.</DialogDescription>
        </DialogHeader>
        {shortcutHelp(searchBox).map((group) => (
          <section key={group.title} className="grid gap-2" aria-label={group.title}>
            <h3 className="text-sm font-semibold">{group.title}</h3>
            <dl className="grid grid-cols-[6rem_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
              {group.shortcuts.map((s) => (
                <div key={s.text} className="contents" data-testid="shortcut">
                  <dt className="flex flex-wrap items-start gap-1">
                    {s.keys.map((k) => <kbd key={k} className="rounded border border-border bg-muted px-1.5 font-mono text-xs leading-5">{k}</kbd>)}
                  </dt>
                  <dd className="text-muted-foreground">{s.text}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </DialogContent>
    </Dialog>
  )
}
