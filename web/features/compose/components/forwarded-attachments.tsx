import { Paperclip, X } from 'lucide-react'
import type { ForwardedAttachment } from '../lib/compose-form.ts'

const sizeText = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`)

/** A forward's attachments from the original: sent along unless removed here. */
export function ForwardedAttachments({ attachments, error, disabled, onRemove }: {
  attachments: readonly ForwardedAttachment[]
  error?: string
  disabled: boolean
  onRemove: (id: string) => void
}) {
  return (
    <div className="grid gap-2">
      <p id="forwarded-attachments" className="text-sm font-medium">Attachments</p>
      <ul aria-labelledby="forwarded-attachments" className="grid gap-1.5">
        {attachments.map((a) => (
          <li key={a.id} className="flex min-w-0 items-center gap-2 rounded-md border border-border px-3 py-1.5 text-sm">
            <Paperclip className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className="min-w-0 flex-1 truncate">{a.filename}</span>
            <span className="shrink-0 font-mono text-xs text-muted-foreground">{sizeText(a.size)}</span>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onRemove(a.id)}
              aria-label={`Remove ${a.filename}`}
              className="shrink-0 cursor-pointer rounded-sm p-1 text-muted-foreground hover:bg-muted hover:text-foreground disabled:cursor-not-allowed"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
    </div>
  )
}
