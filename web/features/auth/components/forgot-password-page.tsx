import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import * as v from 'valibot'
import { EmailOnlySchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { forgotPassword } from '../api/account-links.ts'
import { accountMailErrorToast } from '../lib/rate-limit-toast.ts'
import { issuesToFieldErrors, type FieldErrorMap } from '../lib/form-errors.ts'
import { AccountCard } from './account-card.tsx'

/** /forgot-password: asks for a reset link. The answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password')
  const [email, setEmail] = useState('')
  const [errors, setErrors] = useState<FieldErrorMap>({})
  const [pending, setPending] = useState(false)
  const [sent, setSent] = useState<string>()

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = v.safeParse(EmailOnlySchema, { email })
    if (!parsed.success) return setErrors(issuesToFieldErrors(parsed.issues))
    setErrors({})
    setPending(true)
    try {
      setSent((await forgotPassword(parsed.output.email)).message)
    } catch (error) {
      toast(accountMailErrorToast(error, 'Request Failed'))
    } finally {
      setPending(false)
    }
  }

  return (
    <AccountCard eyebrow="_RESET" title="Forgot Password" subtitle="We mail you a link to choose a new password.">
      <div className="grid gap-6">
        {sent ? (
          <p className="rounded-md bg-muted px-4 py-3 text-sm" role="status" data-testid="reset-requested">
            {sent} The link works once, for 1 hour.
          </p>
        ) : (
          <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Forgot password">
            <FormField label="Email" name="email" type="email" autoComplete="email" placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
            <Button type="submit" size="lg" className="w-full" disabled={pending}>
              {pending && <Spinner decorative />}
              {pending ? 'Sending...' : 'Send Reset Link'}
            </Button>
          </form>
        )}
        <p className="text-center text-sm text-muted-foreground">
          Remembered it?{' '}
          <Link to="/auth" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>
        </p>
      </div>
    </AccountCard>
  )
}
