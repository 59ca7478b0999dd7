import type { ReactNode } from 'react'
import { Download, Paperclip } from 'lucide-react'

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** A message's attachments to download, under a heading of the level the page needs. */
export function AttachmentList({ heading: Heading, children }: { heading: 'h3' | 'h4'; children: ReactNode }) {
  return (
    <section aria-label="Attachments" className="grid gap-2">
      <Heading className="flex items-center gap-2 text-sm font-medium">
        <Paperclip className="size-4" aria-hidden="true" />
        Attachments
      </Heading>
      <ul className="flex flex-wrap gap-2">{children}</ul>
    </section>
  )
}

/** One attachment: its name and size, downloaded under its own file name. */
export function AttachmentLink({ href, filename, size }: { href: string; filename: string; size: number }) {
  return (
    <li>
      <a
        href={href}
        download={filename}
        className="inline-flex items-center gap-2 rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary hover:text-primary"
      >
        <Download className="size-4 shrink-0" aria-hidden="true" />
        <span className="break-all font-medium">{filename}</span>
        <span className="shrink-0 text-xs text-muted-foreground">{sizeText(size)}</span>
      </a>
    </li>
  )
}
