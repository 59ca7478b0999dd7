import { useEffect, useRef } from 'react'
import { shortcutAction, type ShortcutAction } from '../lib/inbox-shortcuts.ts'

export type ShortcutHandlers = Partial<Record<ShortcutAction, () => void>>

/** An open dialog (compose, a question, the shortcuts' own list) takes the keys: none act behind it. */
const dialogOpen = () => document.querySelector('[role="dialog"], [role="alertdialog"]') !== null

/**
 * Binds the inbox's keys (lib/inbox-shortcuts.ts) to `on` while it is mounted: the layout binds
 * c, / and ?, the list and the message view their own. Renders nothing, so a view can place it
 * after its loading states, with handlers that use what has loaded.
 */
export function ShortcutKeys({ on }: { on: ShortcutHandlers }) {
  const handlers = useRef(on)
  handlers.current = on
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.repeat || dialogOpen()) return
      const action = shortcutAction({ key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, target: event.target as HTMLInputElement | null })
      // Enter on a button or link is that control's own press (the browser clicks it)
      if (!action || (event.key === 'Enter' && (event.target as HTMLElement | null)?.closest?.('button, a, [role="button"]'))) return
      const handler = handlers.current[action]
      if (!handler) return
      event.preventDefault()
      handler()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
  return null
}
