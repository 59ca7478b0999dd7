import { Download, Paperclip } from 'lucide-react'
import type { EmailDetailView } from '../../../../shared/email-schemas.ts'
import { sizeText } from '../../decrypt/lib/decrypted-mail.ts'
import { splitContent } from '../lib/message-content.ts'
import { EncryptedBlock } from './encrypted-block.tsx'
import { HtmlBody } from './html-body.tsx'
import { PlainTextBody } from './plain-text-body.tsx'

/**
 * A text body with age blocks shows a decrypt widget for each; else
 * the HTML in its frame; else the plain text; attachments (but the inline images) to download.
 */
export function MessageBody({ email }: { email: EmailDetailView }) {
  const parts = splitContent(email.body)
  const encrypted = parts.some((p) => p.kind === 'age')
  const downloads = email.attachments.filter((a) => !(a.contentId && email.html?.includes(`cid:${a.contentId}`)))
  return (
    <div className="grid grid-cols-1 gap-4">
      {encrypted ? (
        parts.map((part, i) => (part.kind === 'age' ? <EncryptedBlock key={i} armored={part.armored} /> : <PlainTextBody key={i} text={part.text} />))
      ) : email.html !== null ? (
        <HtmlBody email={email} />
      ) : email.body.trim() ? (
        <PlainTextBody text={email.body} />
      ) : (
        <p className="text-sm italic text-muted-foreground">No content available</p>
      )}
      {downloads.length > 0 && (
        <section aria-label="Attachments" className="grid gap-2">
          <h3 className="flex items-center gap-2 text-sm font-medium">
            <Paperclip className="size-4" aria-hidden="true" />
            Attachments
          </h3>
          <ul className="flex flex-wrap gap-2">
            {downloads.map((a) => (
              <li key={a.id}>
                <a
                  href={a.url}
                  download={a.filename}
                  className="inline-flex items-center gap-2 rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary hover:text-primary"
                >
                  <Download className="size-4 shrink-0" aria-hidden="true" />
                  <span className="break-all font-medium">{a.filename}</span>
                  <span className="shrink-0 text-xs text-muted-foreground">{sizeText(a.size)}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}
