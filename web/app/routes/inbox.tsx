import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useInboxTitle } from '../../features/inbox/api/get-email-counts.ts'
import { EmailList } from '../../features/inbox/components/email-list.tsx'

/** /inbox: the message list of the chosen account and category (in the inbox's frame, inbox-frame.tsx). */
export function InboxRoute() {
  useDocumentTitle(useInboxTitle())
  return <EmailList />
}
