import { Trash2 } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import type { SmtpCredential } from '../api/get-smtp-credentials.ts'
import { smtpPorts } from '../lib/smtp-settings.ts'
import { SmtpPasswordRow } from './smtp-password-row.tsx'
import { SmtpSettingRow } from './smtp-setting-row.tsx'
import type { SmtpCredentialState } from './use-smtp-credential.ts'

/** The outgoing-server settings for a mail app, and the two actions that break them. */
export function SmtpCredentialSettings({ smtp, credential }: { smtp: SmtpCredentialState; credential: SmtpCredential }) {
  const confirm = (open: boolean) => !open && smtp.setConfirming(null)
  return (
    <>
      <dl className="grid gap-3 sm:gap-2">
        <SmtpSettingRow label="Server" value={smtp.host} testId="smtp-host" />
        {smtp.ports && smtpPorts(smtp.ports).map(({ id, port, security, hint }) => (
          <SmtpSettingRow key={id} label={`Port (${security})`} value={String(port)} hint={hint} testId={`smtp-port-${id}`} />
        ))}
        <SmtpSettingRow label="Username" value={credential.username} testId="smtp-username" />
        <SmtpPasswordRow smtp={smtp} />
      </dl>
      <div>
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          onClick={() => smtp.setConfirming('delete')}
          disabled={smtp.busy}
        >
          <Trash2 aria-hidden="true" />
          Delete SMTP Credentials
        </Button>
      </div>
      <ConfirmDialog
        open={smtp.confirming === 'regenerate'}
        onOpenChange={confirm}
        title="Regenerate the SMTP password?"
        description="A new password is created and the current one stops working at once. Mail apps that send as this alias need the new password."
        confirmLabel="Regenerate Password"
        pendingLabel="Regenerating..."
        pending={smtp.regenerating}
        onConfirm={smtp.regenerate}
      />
      <ConfirmDialog
        open={smtp.confirming === 'delete'}
        onOpenChange={confirm}
        title="Delete SMTP credentials?"
        description={
          <>
            Mail apps can no longer send as <span className="font-mono font-medium text-foreground">{credential.username}</span>.
            You can create new credentials at any time.
          </>
        }
        confirmLabel="Delete Credentials"
        pendingLabel="Deleting..."
        pending={smtp.deleting}
        onConfirm={smtp.remove}
      />
    </>
  )
}
