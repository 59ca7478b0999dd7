import { Trash2 } from 'lucide-react'
import type { ApiKeyView } from '../../../../shared/api-key-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

/** One key: its name, its first characters, when it was made and the day it was last used. */
export function ApiKeyItem({ apiKey, onRevoke }: { apiKey: ApiKeyView; onRevoke: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3" data-testid="api-key-item">
      <div className="grid min-w-0 gap-0.5">
        <p className="truncate font-medium">{apiKey.name}</p>
        <p className="text-xs text-muted-foreground">
          <code className="font-mono">{apiKey.prefix}…</code> · Created {day(apiKey.createdAt)} · {apiKey.lastUsedAt ? `Last used ${day(apiKey.lastUsedAt)}` : 'Never used'}
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={onRevoke} aria-label={`Revoke ${apiKey.name}`}>
        <Trash2 aria-hidden="true" />
        Revoke
      </Button>
    </li>
  )
}
