import { Copy } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { copyText } from '../../../lib/copy-text.ts'

/** alias@domain, breaking before the @ when it must; clicking it or the copy button copies it. */
export function AliasAddress({ name, domain }: { name: string; domain: string }) {
  const address = `${name}@${domain}`
  return (
    <div className="flex min-w-0 items-start gap-1">
      <button
        type="button"
        onClick={() => copyText(address)}
        title="Click to copy"
        className="min-w-0 cursor-pointer rounded-sm [overflow-wrap:anywhere] text-left font-mono text-sm font-medium hover:text-primary focus-visible:outline-2 focus-visible:outline-ring"
        data-testid="alias-address"
      >
        {name}
        <wbr />@{domain}
      </button>
      <Button
        variant="ghost"
        size="icon"
        className="-mt-1 size-7 text-muted-foreground [&_svg]:size-3.5"
        aria-label={`Copy ${address}`}
        onClick={() => copyText(address)}
      >
        <Copy aria-hidden="true" />
      </Button>
    </div>
  )
}
