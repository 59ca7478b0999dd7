import { useEffect, useState } from 'react'
import { MessageSquareHeart } from 'lucide-react'
import { FEEDBACK_URL } from '../../lib/site.ts'

export const FEEDBACK_VISIBLE_MS = 20_000

/**
 * Floating "Feedback" button that disappears 20 seconds after load. It floats only where the page
 * leaves it a margin of its own (2xl: (1536 − 1152) / 2 = 192 px beside the content), so it never
 * covers a control; narrower screens reach feedback through the footer's _FEEDBACK link.
 */
export function FeedbackButton() {
  const [visible, setVisible] = useState(true)
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), FEEDBACK_VISIBLE_MS)
    return () => clearTimeout(timer)
  }, [])
  if (!visible) return null
  return (
    <button
      type="button"
      onClick={() => window.open(FEEDBACK_URL, '_blank', 'noopener,noreferrer')}
      data-testid="feedback-button"
      className="fixed bottom-5 right-5 z-40 hidden cursor-pointer 2xl:inline-flex items-center gap-2 rounded-full border border-border bg-card px-4 py-2.5 font-mono text-xs font-semibold shadow-lg transition-colors hover:border-primary hover:text-primary"
    >
      <MessageSquareHeart className="size-4" aria-hidden="true" />
      Feedback
    </button>
  )
}
