import type { EmailDetailView } from '../../../../shared/email-schemas.ts'
import { AttachmentLink, AttachmentList } from '../../../components/mail/attachment-list.tsx'
import { splitContent } from '../lib/message-content.ts'
import { useInboxParts } from './inbox-parts.ts'
import { HtmlBody } from './html-body.tsx'
import { PlainTextBody } from './plain-text-body.tsx'

/**
 * A text body with age blocks shows a decrypt widget for each; else
 * the HTML in its frame; else the plain text; attachments (but the inline images) to download.
 */
export function MessageBody({ email }: { email: EmailDetailView }) {
  const { EncryptedBlock } = useInboxParts()
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
        <AttachmentList heading="h3">
          {downloads.map((a) => (
            <AttachmentLink key={a.id} href={a.url} filename={a.filename} size={a.size} />
          ))}
        </AttachmentList>
      )}
    </div>
  )
}
