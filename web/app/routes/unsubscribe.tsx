import { useParams } from 'react-router-dom'
import type { LinkDetailsView } from '../../../shared/sender-block-schemas.ts'
import { Button } from '../../components/ui/button.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { AccountCard } from '../../features/auth/components/account-card.tsx'
import { useLink, useLinkDetails } from '../../features/contacts/api/use-link.ts'

const REFUSED: Record<Exclude<LinkDetailsView['status'], 'ok'>, string> = {
  invalid: 'This link is not valid.',
  expired: 'This link has expired. Pause the alias or block the sender from your dashboard.',
  used: 'This link was used already. Your dashboard shows what it did and can undo it.',
  gone: 'The alias or sender of this link no longer exists.',
}

/**
 * /unsubscribe/:token: where a forward's Unsubscribe or block link opens in a browser (issue 30).
 * Opening it changes nothing (link scanners open links too); the button does, once.
 */
export function UnsubscribeRoute() {
  useDocumentTitle('Unsubscribe')
  const { token = '' } = useParams()
  const details = useLinkDetails(token)
  const use = useLink(token)

  if (details.isPending) return <PageSpinner />
  const link = details.data
  if (use.isSuccess) {
    const done = use.data
    return (
      <AccountCard eyebrow="_UNSUBSCRIBE" title={done.action === 'pause' ? 'Alias Paused' : 'Sender Blocked'} subtitle={done.action === 'pause' ? `${done.alias} no longer forwards mail.` : `Mail from ${done.contact} to ${done.alias} is no longer forwarded.`}>
        <p className="text-center text-sm text-muted-foreground" data-testid="unsubscribe-result">You can undo this from your dashboard.</p>
      </AccountCard>
    )
  }
  if (!link || link.status !== 'ok') {
    return (
      <AccountCard eyebrow="_UNSUBSCRIBE" title="Link Not Usable" subtitle={link ? REFUSED[link.status] : 'This link could not be checked. Please try again.'}>
        <p className="text-center text-sm text-muted-foreground" data-testid="unsubscribe-result">Nothing was changed.</p>
      </AccountCard>
    )
  }
  return (
    <AccountCard eyebrow="_UNSUBSCRIBE" title={link.action === 'pause' ? 'Pause this alias?' : 'Block this sender?'}
      subtitle={link.action === 'pause' ? `${link.alias} will stop forwarding mail until you resume it.` : `Mail from ${link.contact} to ${link.alias} will no longer be forwarded.`}>
      <div className="grid gap-3">
        <Button onClick={() => use.mutate()} disabled={use.isPending} data-testid="unsubscribe-confirm">
          {use.isPending ? 'Working...' : link.action === 'pause' ? 'Pause the alias' : 'Block the sender'}
        </Button>
        {use.isError && <p role="alert" className="text-center text-sm text-destructive">{use.error.message}</p>}
        <p className="text-center text-xs text-muted-foreground">Nothing changes until you press the button. You can undo it from your dashboard.</p>
      </div>
    </AccountCard>
  )
}
