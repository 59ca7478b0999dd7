import { useState } from 'react'
import { LogIn, Pencil, RefreshCw, Trash2, TriangleAlert } from 'lucide-react'
import type { EmailProviderView } from '../../../../shared/email-provider-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { Switch } from '../../../components/ui/switch.tsx'
import { cn } from '../../../lib/cn.ts'
import { accountStatus, folderLines, inProgress, lastSyncText, PROVIDER_LABELS } from '../lib/account-status.ts'
import { OUTLOOK_START_URL } from '../lib/outlook-return.ts'
import type { CreatedEmailProvider } from '../api/create-email-provider.ts'
import { EditAccountDialog } from './edit-account-dialog.tsx'
import { SmtpSettings } from './smtp-settings.tsx'

interface AccountCardProps {
  provider: EmailProviderView
  /** a Sync press is being sent, or a job of this account is being polled */
  syncBusy: boolean
  onSync: () => void
  onDelete: () => Promise<unknown>
  deleting: boolean
  /** a folder other than INBOX turned on or off */
  onFolderChange: (path: string, name: string, enabled: boolean) => void
  folderBusy: boolean
  /** its server or login saved (Edit): the sync that logs in with it */
  onEdited: (saved: CreatedEmailProvider) => void
}

/** One connected account with its state, last sync, folders (each but INBOX can be synced or not), Sync and delete. */
export function AccountCard({ provider: p, syncBusy, onSync, onDelete, deleting, onFolderChange, folderBusy, onEdited }: AccountCardProps) {
  const [confirming, setConfirming] = useState(false)
  const [editing, setEditing] = useState(false)
  const status = accountStatus(p)
  const active = p.isActive && !p.needsAttention
  const busy = syncBusy || inProgress(p)

  return (
    <li className="grid gap-4 rounded-lg border border-border bg-card p-4 sm:p-5" data-testid="mail-account" data-email={p.email} data-state={p.state}>
      <div className="flex min-w-0 flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <h3 className="truncate font-semibold" title={p.email}>{p.email}</h3>
          <p className="text-xs text-muted-foreground">
            {PROVIDER_LABELS[p.provider]}
            {p.provider === 'other' && p.host && <> · <span className="font-mono">{p.host}:{p.port}</span> · {p.secure ? 'SSL/TLS' : 'STARTTLS'}</>}
          </p>
        </div>
        <span className="flex items-center gap-1.5 text-xs font-medium" data-testid="account-active">
          <span aria-hidden="true" className={cn('size-2 rounded-full', active ? 'bg-emerald-500' : 'bg-muted-foreground/50')} />
          {active ? 'Active' : 'Inactive'}
        </span>
      </div>

      <div className="grid gap-2" data-testid="account-state" data-kind={status.kind} aria-live="polite">
        {status.kind === 'outlook-expired' ? (
          <div role="alert" className="grid gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-3">
            <p className="flex items-center gap-2 text-sm font-semibold"><TriangleAlert className="size-4 text-amber-600" aria-hidden="true" />{status.text}</p>
            <p className="text-sm text-muted-foreground">Microsoft no longer accepts this mailbox's sign-in. Sign in again to resume syncing.</p>
            <Button size="sm" className="justify-self-start" onClick={() => window.location.assign(OUTLOOK_START_URL)}>
              <LogIn aria-hidden="true" />
              Re-authenticate
            </Button>
          </div>
        ) : status.kind === 'error' ? (
          <div role="alert" className="grid gap-1 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
            <p className="text-destructive" data-testid="account-error">{status.text}</p>
            {p.needsAttention && <p className="text-muted-foreground">Automatic sync is stopped for this account until it is fixed. Press Sync to try again.</p>}
          </div>
        ) : (
          <p className="flex items-center gap-2 text-sm" data-testid="account-status-text">
            {status.kind === 'stalled' && <TriangleAlert className="size-4 text-amber-600" aria-hidden="true" />}
            {status.kind !== 'idle' && status.kind !== 'stalled' && <Spinner decorative className="text-primary" />}
            {status.text}
          </p>
        )}
        {status.kind === 'syncing' && status.total > 0 && (
          <div role="progressbar" aria-label="Sync progress" aria-valuemin={0} aria-valuemax={status.total} aria-valuenow={status.done} className="h-2 overflow-hidden rounded-full bg-muted">
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${status.percent}%` }} />
          </div>
        )}
        <p className="text-xs text-muted-foreground" data-testid="last-sync">{lastSyncText(p.lastSyncAt)}</p>
      </div>

      {p.folders.length > 0 && (
        <ul className="grid gap-1 border-t border-border pt-3 text-sm" aria-label={`Folders of ${p.email}`}>
          {folderLines(p.folders).map((f) => (
            // on a phone the counts go under the name, which keeps the width it needs
            <li key={f.path} className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 sm:grid-cols-[minmax(0,1fr)_auto_auto]" data-testid="account-folder" data-path={f.path}>
              <span className="truncate font-medium" title={f.path}>{f.name}</span>
              <span className="col-start-1 row-start-2 text-xs text-muted-foreground sm:col-start-2 sm:row-start-1 sm:text-right sm:text-sm">{f.counts}</span>
              {/* INBOX is always synced; any other folder is the user's choice */}
              {f.path === 'INBOX' ? <span className="col-start-2 row-span-2 row-start-1 w-11 sm:col-start-3 sm:row-span-1" aria-hidden="true" /> : (
                <Switch
                  className="col-start-2 row-span-2 row-start-1 sm:col-start-3 sm:row-span-1"
                  checked={f.enabled}
                  disabled={folderBusy}
                  onCheckedChange={(enabled) => onFolderChange(f.path, f.name, enabled)}
                  aria-label={`Sync ${f.name}`}
                />
              )}
            </li>
          ))}
        </ul>
      )}

      <SmtpSettings provider={p} />

      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onSync} disabled={busy}>
          {busy ? <Spinner decorative /> : <RefreshCw aria-hidden="true" />}
          {busy ? 'Syncing…' : 'Sync'}
        </Button>
        {/* a password account's server and login can be fixed (an Outlook account signs in again instead) */}
        {p.provider !== 'outlook' && (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)} aria-label={`Edit connection of ${p.email}`}>
            <Pencil aria-hidden="true" />
            Edit connection
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={() => setConfirming(true)} className="text-destructive hover:text-destructive sm:ml-auto" aria-label={`Remove ${p.email}`}>
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      </div>

      {editing && p.provider !== 'outlook' && (
        <EditAccountDialog
          provider={{ ...p, provider: p.provider }}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false)
            onEdited(saved)
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove Email Account"
        description={<>Remove <strong className="break-all">{p.email}</strong>? The mail Veilmail synced from it is deleted here; nothing changes on the mail server.</>}
        confirmLabel="Remove Account"
        pendingLabel="Removing..."
        pending={deleting}
        onConfirm={() => void onDelete().then(() => setConfirming(false), () => setConfirming(false))}
      />
    </li>
  )
}
