import { MailWarning } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { useUndelivered } from '../api/get-undelivered.ts'
import { UndeliveredItem } from './undelivered-item.tsx'

/**
 * Mail the user's aliases could not deliver to their mailboxes (issue #6), newest first. Shown
 * only when there is some: most users never see it.
 */
export function UndeliveredCard() {
  const undelivered = useUndelivered()
  const items = undelivered.data ?? []
  if (items.length === 0) return null
  return (
    <Card data-testid="undelivered-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <MailWarning aria-hidden="true" className="size-5 text-destructive" />
          <CardTitle>Undelivered</CardTitle>
        </div>
        <CardDescription>
          Mail your aliases could not deliver to your addresses. With an encryption key, a copy is kept for 30 days,
          encrypted so that only your key opens it; Retry sends that encrypted copy again (open it on the Decrypt page).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3" aria-label="Undelivered mail">
          {items.map((item) => (
            <UndeliveredItem key={item.id} item={item} />
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
