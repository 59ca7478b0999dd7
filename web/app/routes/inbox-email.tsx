import { useParams } from 'react-router-dom'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useInboxTitle } from '../../features/inbox/api/get-email-counts.ts'
import { EmailDetail } from '../../features/inbox/components/email-detail.tsx'
import { InboxLayout } from '../../features/inbox/components/inbox-layout.tsx'
import { inboxParts } from '../inbox/inbox-parts.ts'

/** /inbox/:emailId: one message or its conversation. */
export function InboxEmailRoute() {
  useDocumentTitle(useInboxTitle())
  const { emailId = '' } = useParams()
  return (
    <InboxLayout parts={inboxParts}>
      <EmailDetail key={emailId} emailId={emailId} />
    </InboxLayout>
  )
}
