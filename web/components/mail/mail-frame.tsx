import { useEffect, useMemo, useRef, useState } from 'react'
import { mailFrameDocument } from '../../lib/mail-html.ts'

const MIN_HEIGHT = 160
const MAX_HEIGHT = 20_000

/**
 * Sanitized mail HTML in a sandboxed frame: no allow-scripts (nothing in it runs), no
 * allow-forms, no allow-top-navigation; links open in a new tab outside the sandbox. Same-origin
 * only so this page can size the frame to its content; without scripts the frame cannot use it.
 * The document is a blob: URL of this page, not a srcdoc: Chromium sends this page's origin as
 * Referer with the CSS image requests of a srcdoc document whatever its referrer policy (the
 * page's header, its own meta), while a document at a blob: URL names no referrer at all (Fetch:
 * a local scheme is stripped). docs/decisions/0037-mail-frame.md.
 */
export function MailFrame({ html, showRemote, title = 'Message body' }: { html: string; showRemote: boolean; title?: string }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = useState(MIN_HEIGHT)
  // made in the render, so the frame is created with its document instead of blank and then sent to it
  const url = useMemo(() => URL.createObjectURL(new Blob([mailFrameDocument(html, showRemote)], { type: 'text/html;charset=utf-8' })), [html, showRemote])
  // released once the frame has loaded it (or a newer one): not at once, as StrictMode's second
  // mount in development keeps the same URL
  useEffect(() => () => void setTimeout(() => URL.revokeObjectURL(url), 10_000), [url])
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
      src={url}
      onLoad={fit}
      style={{ height }}
      className="w-full rounded-md border border-border bg-white"
    />
  )
}
