import { linkify } from '../lib/message-content.ts'

/** Plain text as written, escaped by React, with its web links clickable (in a new tab). */
export function PlainTextBody({ text }: { text: string }) {
  return (
    <div className="whitespace-pre-wrap break-words text-sm leading-relaxed" data-testid="plain-body">
      {linkify(text).map((segment, i) =>
        segment.kind === 'link' ? (
          <a key={i} href={segment.href} target="_blank" rel="noopener noreferrer" className="text-primary underline underline-offset-2">
            {segment.text}
          </a>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </div>
  )
}
