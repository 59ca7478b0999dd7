import { ExternalLink, KeyRound, Send } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { errorMessage } from '../../../lib/api-client.ts'
import { SMTP_SETUP_GUIDE_URL } from '../lib/smtp-settings.ts'
import { SmtpCredentialSettings } from './smtp-credential-settings.tsx'
import { useSmtpCredential } from './use-smtp-credential.ts'

interface SmtpCredentialsPanelProps {
  aliasId: string
  address: string
  /** A paused alias cannot send (the submission server refuses its login). */
  paused: boolean
}

/** The SMTP Credentials panel: send as the alias from a mail app. Mounted only when expanded. */
export function SmtpCredentialsPanel({ aliasId, address, paused }: SmtpCredentialsPanelProps) {
  const smtp = useSmtpCredential(aliasId, address)
  const headingId = `smtp-credentials-${aliasId}`
  return (
    <section aria-labelledby={headingId} className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4" data-testid="smtp-panel">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <div className="flex items-center gap-2">
          <Send aria-hidden="true" className="size-4 text-primary" />
          <h3 id={headingId} className="text-sm font-semibold">
            SMTP Credentials
          </h3>
        </div>
        <a
          href={SMTP_SETUP_GUIDE_URL}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 text-xs font-medium text-primary underline-offset-4 hover:underline"
        >
          SMTP setup guide
          <ExternalLink aria-hidden="true" className="size-3.5" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </div>
      <p className="max-w-3xl text-xs text-muted-foreground">
        Send mail as <span className="font-mono">{address}</span> from any mail app: enter these settings as its outgoing
        (SMTP) server.
        {paused && ' This alias is paused, so sending is refused until you turn it back on.'}
      </p>
      {smtp.list.isPending ? (
        <Spinner label="Loading SMTP credentials" className="size-5" />
      ) : smtp.list.isError ? (
        <div className="flex flex-wrap items-center gap-2">
          <p role="alert" className="text-xs font-medium text-destructive">
            {errorMessage(smtp.list.error, 'Failed to load SMTP credentials')}
          </p>
          <Button variant="outline" size="sm" onClick={() => smtp.list.refetch()}>
            Try Again
          </Button>
        </div>
      ) : smtp.credential ? (
        <SmtpCredentialSettings smtp={smtp} credential={smtp.credential} />
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-muted-foreground">No SMTP credentials for this alias yet.</p>
          <Button size="sm" onClick={smtp.create} disabled={smtp.creating}>
            {smtp.creating ? <Spinner decorative /> : <KeyRound aria-hidden="true" />}
            {smtp.creating ? 'Creating...' : 'Create SMTP'}
          </Button>
        </div>
      )}
    </section>
  )
}
