import { useState } from 'react'
import { Link } from 'react-router-dom'
import { MailCheck } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { resendVerification } from '../api/account-links.ts'
import { accountMailErrorToast } from '../../../lib/rate-limit-toast.ts'
import { AccountCard } from './account-card.tsx'
import { useAuth } from '../../../lib/auth-context.ts'

/**
 * An e-mail account whose address is not confirmed yet: after registering, and instead of any
 * signed-in page until the link is followed. `email` is the address just registered (signed
 * out); without it the signed-in account's address is used.
 */
export function PendingVerification({ email }: { email?: string }) {
  useDocumentTitle('Confirm Your Email')
  const { user, logout } = useAuth()
  const address = email ?? user?.email ?? ''
  const [sending, setSending] = useState(false)

  async function resend() {
    setSending(true)
    try {
      const { message } = await resendVerification(email)
      toast({ title: 'Verification Email Sent', description: message })
    } catch (error) {
      toast(accountMailErrorToast(error, 'Resend Failed'))
    } finally {
      setSending(false)
    }
  }

  return (
    <AccountCard eyebrow="_VERIFY" title="Check Your Inbox" subtitle="Confirm your e-mail address to start using Veilmail.">
      <div className="grid gap-5" data-testid="pending-verification">
        <div className="flex items-start gap-3 rounded-md bg-muted px-4 py-3 text-sm">
          <MailCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <p>
            If <span className="font-medium break-all" data-testid="pending-email">{address}</span> can receive mail from us, a link to confirm it is on its way.
            Open it within 24 hours. Until then the account can do nothing; the link signs you in.
          </p>
        </div>
        <Button type="button" size="lg" variant="outline" className="w-full" disabled={sending || !address} onClick={() => void resend()}>
          {sending && <Spinner decorative />}
          {sending ? 'Sending...' : 'Resend Verification Email'}
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          {user ? (
            <button type="button" className="font-medium text-primary underline-offset-4 hover:underline" onClick={() => void logout()}>
              Sign out
            </button>
          ) : (
            <>
              Already confirmed?{' '}
              <Link to="/auth" className="font-medium text-primary underline-offset-4 hover:underline">
                Sign in
              </Link>
            </>
          )}
        </p>
      </div>
    </AccountCard>
  )
}
