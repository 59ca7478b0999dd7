import { useEffect, useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ImageOff } from 'lucide-react'
import type { EmailDetailView } from '../../../../shared/email-schemas.ts'
import { MailFrame } from '../../../components/mail/mail-frame.tsx'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { sanitizeMailHtml, sanitizeMailHtmlNow, type SanitizedMail } from '../../../lib/mail-html.ts'

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(blob)
  })
}

const NO_IMAGES: ReadonlyMap<string, string> = new Map()

/**
 * The message's own images (cid:, RFC 2392) from its stored attachments, as data: URLs for the
 * frame; none to fetch: at once.
 */
function useInlineImages(email: EmailDetailView): ReadonlyMap<string, string> | undefined {
  const wanted = email.attachments.filter((a) => a.contentId && a.contentType.startsWith('image/') && email.html?.includes(`cid:${a.contentId}`))
  const images = useQuery({
    queryKey: ['email-inline-images', email.id],
    enabled: wanted.length > 0,
    queryFn: async () => {
      const entries = await Promise.all(wanted.map(async (a) => {
        const res = await fetch(a.url, { credentials: 'include' })
        return res.ok ? ([a.contentId!, await dataUrl(await res.blob())] as const) : undefined
      }))
      return new Map(entries.filter((e) => e !== undefined))
    },
  })
  return wanted.length === 0 ? NO_IMAGES : images.data
}

type Shown = SanitizedMail & { showRemote: boolean }

/**
 * An HTML message: sanitized, remote images held back until "Show images" for this message.
 * Sanitized in the render that has the message when the sanitizer's code has come (the list
 * fetches it ahead), else once it has.
 */
export function HtmlBody({ email }: { email: EmailDetailView }) {
  const [showRemote, setShowRemote] = useState(false)
  const inline = useInlineImages(email)
  const now = useMemo<Shown | undefined>(() => {
    const result = inline && email.html !== null ? sanitizeMailHtmlNow(email.html, { inline, showRemote }) : undefined
    return result && { ...result, showRemote }
  }, [email.html, inline, showRemote])
  const [later, setLater] = useState<Shown>()
  useEffect(() => {
    if (now || !inline || email.html === null) return
    let current = true
    void sanitizeMailHtml(email.html, { inline, showRemote }).then((result) => current && setLater({ ...result, showRemote }))
    return () => {
      current = false
    }
  }, [now, email.html, inline, showRemote])

  const sanitized = now ?? (later?.showRemote === showRemote ? later : undefined)
  if (!sanitized) return <div className="flex justify-center py-8"><Spinner label="Loading message" /></div>
  return (
    <div className="grid gap-2">
      {sanitized.blockedRemote > 0 && !showRemote && (
        <div className="flex flex-wrap items-center gap-3 rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground" data-testid="remote-blocked">
          <ImageOff className="size-4 shrink-0" aria-hidden="true" />
          <span className="flex-1">Remote images are hidden: loading them would tell the sender you opened this message.</span>
          <Button variant="outline" size="sm" onClick={() => setShowRemote(true)}>
            Show images
          </Button>
        </div>
      )}
      <MailFrame html={sanitized.html} showRemote={sanitized.showRemote} />
    </div>
  )
}
