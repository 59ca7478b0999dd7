import { Link } from 'react-router-dom'
import { ArrowLeft } from 'lucide-react'
import { PageHeader } from '../../components/layout/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { MailboxSettings } from '../../features/mailboxes/components/mailbox-settings.tsx'

/** /inbox/settings: connected IMAP accounts, the inbox's third view (in the inbox's frame, its sidebar beside it; a way back to the list). */
export function InboxSettingsRoute() {
  useDocumentTitle('IMAP Account Settings')
  return (
    <div className="grid min-w-0 gap-6">
      <Button asChild variant="ghost" size="sm" className="w-fit">
        <Link to="/inbox">
          <ArrowLeft aria-hidden="true" />
          Back to inbox
        </Link>
      </Button>
      <PageHeader title="IMAP Account Settings" subtitle="Connect the mailboxes whose mail Veilmail shows in your inbox" />
      <MailboxSettings />
    </div>
  )
}
