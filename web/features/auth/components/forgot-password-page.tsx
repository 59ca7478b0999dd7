import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { EmailOnlySchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { forgotPassword } from '../api/account-links.ts'
import { accountMailErrorToast } from '../../../lib/rate-limit-toast.ts'
import { AccountCard } from './account-card.tsx'
import { EmailField } from './email-field.tsx'

/** /forgot-password: asks for a reset link. The answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password')
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState<string>()
  const { errors, pending, submit } = useSchemaForm(EmailOnlySchema, {
    onSubmit: async (input) => setSent((await forgotPassword(input.email)).message),
    onError: (error) => toast(accountMailErrorToast(error, 'Request Failed')),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => submit(event, { email })

  return (
    <AccountCard eyebrow="_RESET" title="Forgot Password" subtitle="We mail you a link to choose a new password.">
      <div className="grid gap-6">
        {sent ? (
          <p className="rounded-md bg-muted px-4 py-3 text-sm" role="status" data-testid="reset-requested">
            {sent} The link works once, for 1 hour.
          </p>
        ) : (
          <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Forgot password">
            <EmailField value={email} onChange={setEmail} error={errors.email} />
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
