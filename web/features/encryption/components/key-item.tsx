import { Copy, Download, Star, Trash2 } from 'lucide-react'
import type { EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { copyPublicKey, formatKeyDate } from '../lib/key-display.ts'

interface KeyItemProps {
  encryptionKey: EncryptionKeyView
  onDownload: () => void
  onDelete: () => void
  onMakeDefault: () => void
  makingDefault: boolean
}

/** One key: name, date, Default badge, the public key (click to copy) and its actions. */
export function KeyItem({ encryptionKey: key, onDownload, onDelete, onMakeDefault, makingDefault }: KeyItemProps) {
  return (
    <li className="grid gap-4 rounded-lg border border-border bg-card p-4 sm:p-5" data-testid="encryption-key" data-key-name={key.keyName}>
      <div className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 className="truncate font-semibold">{key.keyName}</h3>
          {key.isDefault && (
            <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-medium text-accent-foreground" data-testid="default-badge">
              Default
            </span>
          )}
        </div>
        <p className="text-xs text-muted-foreground">
          Created <time dateTime={key.createdAt}>{formatKeyDate(key.createdAt)}</time>
        </p>
      </div>
      <div className="grid gap-1.5">
        <span className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Public Key</span>
        <button
          type="button"
          onClick={() => copyPublicKey(key.publicKey)}
          title="Click to copy"
          aria-label={`Public key ${key.publicKey}, click to copy`}
          className="cursor-pointer break-all rounded-md border border-border bg-muted px-3 py-2 text-left font-mono text-xs leading-relaxed transition-colors hover:border-ring/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/30"
          data-testid="public-key"
        >
          {key.publicKey}
        </button>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onDownload}>
          <Download aria-hidden="true" />
          Download
        </Button>
        <Button variant="outline" size="sm" onClick={() => copyPublicKey(key.publicKey)}>
          <Copy aria-hidden="true" />
          Copy Public Key
        </Button>
        {!key.isDefault && (
          <Button variant="outline" size="sm" onClick={onMakeDefault} disabled={makingDefault}>
            {makingDefault ? <Spinner decorative /> : <Star aria-hidden="true" />}
            Make Default
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={onDelete} className="text-destructive hover:text-destructive sm:ml-auto">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </li>
  )
}
