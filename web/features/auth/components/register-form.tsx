import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import * as v from 'valibot'
import { RegisterFormSchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { apiFieldErrors, issuesToFieldErrors, type FieldErrorMap } from '../lib/form-errors.ts'
import { useAuth } from './auth-context.ts'

const MISMATCH = 'Passwords do not match'
const TOO_SHORT = 'Password must be at least 8 characters'

export function RegisterForm() {
  const { register } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [errors, setErrors] = useState<FieldErrorMap>({})
  const [pending, setPending] = useState(false)

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = v.safeParse(RegisterFormSchema, { email, password, confirmPassword })
    if (!parsed.success) {
      const fieldErrors = issuesToFieldErrors(parsed.issues)
      setErrors(fieldErrors)
      if (fieldErrors.confirmPassword === MISMATCH) {
        toast({ title: 'Password Mismatch', description: MISMATCH, variant: 'destructive' })
      } else if (fieldErrors.password === TOO_SHORT) {
        toast({ title: 'Password Too Short', description: TOO_SHORT, variant: 'destructive' })
      }
      return
    }
    setErrors({})
    setPending(true)
    try {
      const { email: registered } = await register({ email: parsed.output.email, password: parsed.output.password })
      toast({ title: 'Check Your Email', description: 'We sent a link to confirm your address.' })
      navigate('/check-email', { state: { email: registered } })
    } catch (error) {
      setErrors(apiFieldErrors(error))
      toast({ title: 'Registration Failed', description: errorMessage(error, 'Failed to create account'), variant: 'destructive' })
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Create account">
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
      />
      <FormField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
        hint="At least 8 characters."
      />
      <FormField
        label="Confirm Password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(e) => setConfirmPassword(e.target.value)}
        error={errors.confirmPassword}
      />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending && <Spinner decorative />}
        {pending ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  )
}
