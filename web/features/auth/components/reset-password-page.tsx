import { useState, type FormEvent } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { ResetPasswordFormSchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { resetPassword } from '../api/account-links.ts'
import { accountMailErrorToast } from '../../../lib/rate-limit-toast.ts'
import { AccountCard } from './account-card.tsx'
import { NewPasswordFields } from './new-password-fields.tsx'

/** /reset-password?token=…: the link from the reset mail. A new password ends every session. */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a New Password')
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const { errors, pending, submit } = useSchemaForm(ResetPasswordFormSchema, {
    async onSubmit(input) {
      const { message } = await resetPassword(params.get('token') ?? '', input.password)
      toast({ title: 'Password Changed', description: message })
      navigate('/auth', { replace: true })
    },
    onError: (error, fields) => toast(accountMailErrorToast(error, fields.token ? 'Link Not Valid' : 'Reset Failed')),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => submit(event, { password, confirmPassword })

  return (
    <AccountCard eyebrow="_RESET" title="Choose a New Password" subtitle="Every device signed in to your account is signed out.">
      <div className="grid gap-6">
        <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Reset password">
          <NewPasswordFields label="New Password" password={password} confirmPassword={confirmPassword} onPassword={setPassword} onConfirmPassword={setConfirmPassword} errors={errors} />
          {errors.token && (
            <p className="text-sm text-destructive" role="alert">
              {errors.token}. <Link to="/forgot-password" className="underline underline-offset-2">Ask for a new link</Link>.
            </p>
          )}
          <Button type="submit" size="lg" className="w-full" disabled={pending}>
            {pending && <Spinner decorative />}
            {pending ? 'Saving...' : 'Set New Password'}
          </Button>
        </form>
      </div>
    </AccountCard>
  )
}
