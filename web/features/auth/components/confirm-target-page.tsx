import { useEffect, useRef, useState } from 'react'
import { PageSpinner } from '../../../components/ui/spinner.tsx'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSearchParams } from 'react-router-dom'
import { confirmForwardTarget } from '../api/account-links.ts'
import { AccountCard } from './account-card.tsx'

/** /confirm-target?token=…: the one-click link mailed to a new forward target. */
export function ConfirmTargetPage() {
  useDocumentTitle('Confirm Forwarding')
  const [params] = useSearchParams()
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string }>()
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    confirmForwardTarget(params.get('token') ?? '').then(
      ({ message }) => setOutcome({ ok: true, message }),
      (error) => setOutcome({ ok: false, message: errorMessage(error, 'This link is invalid or has expired') }),
    )
  }, [params])

  if (!outcome) return <PageSpinner />
  return (
    <AccountCard eyebrow="_FORWARDING" title={outcome.ok ? 'Forwarding Confirmed' : 'Link Not Valid'} subtitle={outcome.message}>
      <p className="text-center text-sm text-muted-foreground" data-testid="confirm-target-result">
        {outcome.ok ? 'You can close this page.' : 'Links work once and for 7 days. Ask the sender to resend it from their dashboard.'}
      </p>
    </AccountCard>
  )
}
