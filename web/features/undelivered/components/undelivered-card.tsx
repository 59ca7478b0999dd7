import { MailWarning, Webhook } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { useUndelivered } from '../api/get-undelivered.ts'
import { useWebhookFailures } from '../api/get-webhook-failures.ts'
import { UndeliveredItem } from './undelivered-item.tsx'
import { WebhookFailureItem } from './webhook-failure-item.tsx'

/**
 * Mail the user's aliases could not deliver (issue #6), newest first, and webhook deliveries that
 * are failing and wait for their next try (issue 15), per alias. Shown only when there is some:
 * most users never see it.
 */
export function UndeliveredCard() {
  const undelivered = useUndelivered()
  const webhooks = useWebhookFailures()
  const items = undelivered.data ?? []
  // grouped by alias, the last failure first within each
  const failures = [...(webhooks.data ?? [])].sort((a, b) => a.alias.localeCompare(b.alias))
  if (items.length === 0 && failures.length === 0) return null
  return (
    <Card data-testid="undelivered-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <MailWarning aria-hidden="true" className="size-5 text-destructive" />
          <CardTitle>Undelivered</CardTitle>
        </div>
        <CardDescription>
          Mail your aliases could not deliver to your addresses or webhooks. With an encryption key, a copy of e-mail is
          kept for 30 days, encrypted so that only your key opens it; Retry sends that encrypted copy again (open it on
          the Decrypt page).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {failures.length > 0 && (
          <section className="grid gap-3" aria-labelledby="webhook-failures-title">
            <h3 id="webhook-failures-title" className="flex items-center gap-2 text-sm font-semibold">
              <Webhook aria-hidden="true" className="size-4" />
              Webhook deliveries failing
            </h3>
            <p className="text-xs text-muted-foreground">
              Each is tried again on its own for about a day, less and less often. Retry now tries at once; Drop gives up.
            </p>
            <ul className="grid gap-3" aria-label="Failing webhook deliveries">
              {failures.map((failure) => (
                <WebhookFailureItem key={failure.id} failure={failure} />
              ))}
            </ul>
          </section>
        )}
        {items.length > 0 && (
          <ul className="grid gap-3" aria-label="Undelivered mail">
            {items.map((item) => (
              <UndeliveredItem key={item.id} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
