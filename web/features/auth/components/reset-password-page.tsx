import { useState, type FormEvent } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import * as v from 'valibot'
import { ResetPasswordFormSchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDocumentTitle } from '../../../hooks/use-document-title.ts'
import { resetPassword } from '../api/account-links.ts'
import { accountMailErrorToast } from '../lib/rate-limit-toast.ts'
import { apiFieldErrors, issuesToFieldErrors, type FieldErrorMap } from '../lib/form-errors.ts'
import { AccountCard } from './account-card.tsx'

/** /reset-password?token=…: the link from the reset mail. A new password ends every session. */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a New Password')
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [errors, setErrors] = useState<FieldErrorMap>({})
  const [pending, setPending] = useState(false)

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = v.safeParse(ResetPasswordFormSchema, { password, confirmPassword })
    if (!parsed.success) return setErrors(issuesToFieldErrors(parsed.issues))
    setErrors({})
    setPending(true)
    try {
      const { message } = await resetPassword(params.get('token') ?? '', parsed.output.password)
      toast({ title: 'Password Changed', description: message })
      navigate('/auth', { replace: true })
    } catch (error) {
      const fields = apiFieldErrors(error)
      setErrors(fields)
      toast(accountMailErrorToast(error, fields.token ? 'Link Not Valid' : 'Reset Failed'))
    } finally {
      setPending(false)
    }
  }

  return (
    <AccountCard eyebrow="_RESET" title="Choose a New Password" subtitle="Every device signed in to your account is signed out.">
      <div className="grid gap-6">
        <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Reset password">
          <FormField label="New Password" name="password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} hint="At least 8 characters." />
          <FormField label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} error={errors.confirmPassword} />
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
