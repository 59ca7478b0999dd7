import { useParams } from 'react-router-dom'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { EmailDetail } from '../../features/inbox/components/email-detail.tsx'
import { InboxLayout } from '../../features/inbox/components/inbox-layout.tsx'
import { inboxParts } from '../inbox/inbox-parts.ts'

/** /inbox/:emailId: one message or its conversation. */
export function InboxEmailRoute() {
  useDocumentTitle('Inbox')
  const { emailId = '' } = useParams()
  return (
    <InboxLayout parts={inboxParts}>
      <EmailDetail key={emailId} emailId={emailId} />
    </InboxLayout>
  )
}
