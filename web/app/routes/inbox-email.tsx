import { useParams } from 'react-router-dom'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useInboxTitle } from '../../features/inbox/api/get-email-counts.ts'
import { EmailDetail } from '../../features/inbox/components/email-detail.tsx'

/** /inbox/:emailId: one message or its conversation (in the inbox's frame, inbox-frame.tsx). */
export function InboxEmailRoute() {
  useDocumentTitle(useInboxTitle())
  const { emailId = '' } = useParams()
  return <EmailDetail key={emailId} emailId={emailId} />
}
