import { useEffect, useMemo, useState } from 'react'
import { ImageOff } from 'lucide-react'
import { AttachmentLink, AttachmentList } from '../../../components/mail/attachment-list.tsx'
import { MailFrame } from '../../../components/mail/mail-frame.tsx'
import type { DecryptedMail, MailAttachment } from '../lib/decrypted-mail.ts'

/** The attachment's bytes behind an object URL, released when it leaves the page. */
function BlobAttachmentLink({ attachment }: { attachment: MailAttachment }) {
  const url = useMemo(() => URL.createObjectURL(attachment.blob), [attachment])
  useEffect(() => () => URL.revokeObjectURL(url), [url])
  return <AttachmentLink href={url} filename={attachment.filename} size={attachment.size} />
}

/** The original message as a mail program shows it: headers, body, attachments to download. */
export function DecryptedMailView({ mail }: { mail: DecryptedMail }) {
  const [showText, setShowText] = useState(false)
  const html = mail.html !== undefined && !showText
  return (
    <article className="grid gap-4" data-testid="decrypted-mail" aria-label="Decrypted message">
      <header className="grid gap-1 border-b border-border pb-3">
        <h3 className="text-lg font-semibold break-words" data-testid="decrypted-subject">
          {mail.subject || '(no subject)'}
        </h3>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
          {mail.headers.map((h) => (
            <div key={h.label} className="contents">
              <dt className="text-muted-foreground">{h.label}</dt>
              <dd className="break-all" data-testid={`decrypted-${h.label.toLowerCase()}`}>{h.value}</dd>
            </div>
          ))}
        </dl>
      </header>
      {mail.blockedRemote > 0 && html && (
        <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground" data-testid="remote-blocked">
          <ImageOff className="size-4 shrink-0" aria-hidden="true" />
          Remote images blocked ({mail.blockedRemote}): loading them would tell the sender you opened this message.
        </p>
      )}
      {html ? (
        <MailFrame html={mail.html!} showRemote={false} />
      ) : (
        <div className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md border border-border p-3 text-sm" data-testid="decrypted-body">
          {mail.text || '(This message has no text.)'}
        </div>
      )}
      {mail.html !== undefined && mail.text && (
        <button type="button" className="justify-self-start text-xs text-primary underline-offset-4 hover:underline" onClick={() => setShowText((v) => !v)}>
          {showText ? 'Show formatted message' : 'Show plain text'}
        </button>
      )}
      {mail.attachments.length > 0 && (
        <AttachmentList heading="h4">
          {mail.attachments.map((a, i) => (
            <BlobAttachmentLink key={`${a.filename}-${i}`} attachment={a} />
          ))}
        </AttachmentList>
      )}
    </article>
  )
}
