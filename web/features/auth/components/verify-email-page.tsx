import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { PageSpinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { AccountCard } from './account-card.tsx'
import { useAuth } from '../../../lib/auth-context.ts'

/** /verify-email?token=…: the link from the verification mail. Following it once proves the address and signs in. */
export function VerifyEmailPage() {
  useDocumentTitle('Confirm Your Email')
  const [params] = useSearchParams()
  const { verifyEmail } = useAuth()
  const navigate = useNavigate()
  const [failure, setFailure] = useState<string>()
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    verifyEmail(params.get('token') ?? '').then(
      (user) => {
        if (!user) return navigate('/auth/second-factor', { replace: true })
        toast({ title: 'Email Verified', description: 'Your address is confirmed. Welcome to Veilmail.' })
        navigate('/dashboard', { replace: true })
      },
      (error) => setFailure(errorMessage(error, 'This link is invalid or has expired')),
    )
  }, [params, verifyEmail, navigate])

  if (!failure) return <PageSpinner />
  return (
    <AccountCard eyebrow="_VERIFY" title="Link Not Valid" subtitle={failure}>
      <p className="text-center text-sm text-muted-foreground" data-testid="verify-failed">
        Links work once and for 24 hours. <Link to="/auth" className="font-medium text-primary underline-offset-4 hover:underline">Sign in</Link> to
        get a new one.
      </p>
    </AccountCard>
  )
}
