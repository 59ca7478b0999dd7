import { useEffect, useMemo, useState } from 'react'
import { Download, ImageOff, Paperclip } from 'lucide-react'
import { MailFrame } from '../../../components/mail/mail-frame.tsx'
import { type DecryptedMail, type MailAttachment, sizeText } from '../lib/decrypted-mail.ts'

function AttachmentLink({ attachment }: { attachment: MailAttachment }) {
  const url = useMemo(() => URL.createObjectURL(attachment.blob), [attachment])
  useEffect(() => () => URL.revokeObjectURL(url), [url])
  return (
    <li>
      <a
        href={url}
        download={attachment.filename}
        className="inline-flex items-center gap-2 rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary hover:text-primary"
      >
        <Download className="size-4 shrink-0" aria-hidden="true" />
        <span className="break-all font-medium">{attachment.filename}</span>
        <span className="shrink-0 text-xs text-muted-foreground">{sizeText(attachment.size)}</span>
      </a>
    </li>
  )
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
        <section aria-label="Attachments" className="grid gap-2">
          <h4 className="flex items-center gap-2 text-sm font-medium">
            <Paperclip className="size-4" aria-hidden="true" />
            Attachments
          </h4>
          <ul className="flex flex-wrap gap-2">
            {mail.attachments.map((a, i) => (
              <AttachmentLink key={`${a.filename}-${i}`} attachment={a} />
            ))}
          </ul>
        </section>
      )}
    </article>
  )
}
