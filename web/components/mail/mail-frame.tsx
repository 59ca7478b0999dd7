import { useRef, useState } from 'react'
import { mailFrameDocument } from '../../lib/mail-html.ts'

const MIN_HEIGHT = 160
const MAX_HEIGHT = 20_000

/**
 * Sanitized mail HTML in a sandboxed frame: no allow-scripts (nothing in it runs), no
 * allow-forms, no allow-top-navigation; links open in a new tab outside the sandbox. Same-origin
 * only so this page can size the frame to its content; without scripts the frame cannot use it.
 */
export function MailFrame({ html, showRemote, title = 'Message body' }: { html: string; showRemote: boolean; title?: string }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = useState(MIN_HEIGHT)
  function fit() {
    const doc = frame.current?.contentDocument
    if (!doc?.documentElement) return
    setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, doc.documentElement.scrollHeight + 2)))
    // Images that arrive later (shown images, inline ones) change the height again.
    for (const img of Array.from(doc.images)) if (!img.complete) img.addEventListener('load', fit, { once: true })
  }
  return (
    <iframe
      ref={frame}
      title={title}
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={mailFrameDocument(html, showRemote)}
      onLoad={fit}
      style={{ height }}
      className="w-full rounded-md border border-border bg-white"
    />
  )
}
