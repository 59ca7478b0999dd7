import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ImageOff } from 'lucide-react'
import type { EmailDetailView } from '../../../../shared/email-schemas.ts'
import { MailFrame } from '../../../components/mail/mail-frame.tsx'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { sanitizeMailHtml, type SanitizedMail } from '../../../lib/mail-html.ts'

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(blob)
  })
}

/** The message's own images (cid:, RFC 2392) from its stored attachments, as data: URLs for the frame. */
function useInlineImages(email: EmailDetailView) {
  const wanted = email.attachments.filter((a) => a.contentId && a.contentType.startsWith('image/') && email.html?.includes(`cid:${a.contentId}`))
  return useQuery({
    queryKey: ['email-inline-images', email.id],
    queryFn: async () => {
      const entries = await Promise.all(wanted.map(async (a) => {
        const res = await fetch(a.url, { credentials: 'include' })
        return res.ok ? ([a.contentId!, await dataUrl(await res.blob())] as const) : undefined
      }))
      return new Map(entries.filter((e) => e !== undefined))
    },
  })
}

/** An HTML message: sanitized, remote images held back until "Show images" for this message. */
export function HtmlBody({ email }: { email: EmailDetailView }) {
  const [showRemote, setShowRemote] = useState(false)
  const inline = useInlineImages(email)
  const [sanitized, setSanitized] = useState<SanitizedMail & { showRemote: boolean }>()
  useEffect(() => {
    if (!inline.data || email.html === null) return
    let current = true
    void sanitizeMailHtml(email.html, { inline: inline.data, showRemote }).then((result) => current && setSanitized({ ...result, showRemote }))
    return () => {
      current = false
    }
  }, [email.html, inline.data, showRemote])

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
