import { Copy } from 'lucide-react'
import type { CreatedApiKey } from '../../../../shared/api-key-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { copyToClipboard } from '../../../lib/copy-text.ts'

/** The new key, shown this once: copy it now, it cannot be shown again. */
export function NewApiKeyNotice({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone: () => void }) {
  return (
    <div role="status" className="grid gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4" data-testid="new-api-key">
      <p className="text-sm font-medium">
        Your new key "{apiKey.name}". Copy it now: it is shown only this once.
      </p>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 rounded-md border border-border bg-background px-3 py-2 font-mono text-sm [overflow-wrap:anywhere]" data-testid="new-api-key-value">
          {apiKey.key}
        </code>
        <Button variant="outline" onClick={() => copyToClipboard(apiKey.key, { title: 'Copied!', description: 'API key copied to clipboard' })}>
          <Copy aria-hidden="true" />
          Copy
        </Button>
      </div>
      <div>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  )
}
