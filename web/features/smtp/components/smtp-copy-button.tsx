import { Copy } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { copyText } from '../../../lib/copy-text.ts'

/** An icon button that copies one setting; its name says which ("Copy Server"). */
export function SmtpCopyButton({ value, what, disabled }: { value: string; what: string; disabled?: boolean }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-8 text-muted-foreground"
      aria-label={`Copy ${what}`}
      title={`Copy ${what.toLowerCase()}`}
      disabled={disabled}
      onClick={() => copyText(value, what)}
    >
      <Copy aria-hidden="true" />
    </Button>
  )
}
