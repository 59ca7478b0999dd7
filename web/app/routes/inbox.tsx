import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { useInboxTitle } from '../../features/inbox/api/get-email-counts.ts'
import { EmailList } from '../../features/inbox/components/email-list.tsx'
import { InboxLayout } from '../../features/inbox/components/inbox-layout.tsx'
import { inboxParts } from '../inbox/inbox-parts.ts'

/** /inbox: the message list of the chosen account and category. */
export function InboxRoute() {
  useDocumentTitle(useInboxTitle())
  return (
    <InboxLayout parts={inboxParts}>
      <EmailList />
    </InboxLayout>
  )
}
