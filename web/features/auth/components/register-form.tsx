import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { RegisterFormSchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { EmailField } from './email-field.tsx'
import { NewPasswordFields } from './new-password-fields.tsx'

const MISMATCH = 'Passwords do not match'
const TOO_SHORT = 'Password must be at least 8 characters'

export function RegisterForm() {
  const { register } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const { errors, pending, submit } = useSchemaForm(RegisterFormSchema, {
    onInvalid(fieldErrors) {
      if (fieldErrors.confirmPassword === MISMATCH) {
        toast({ title: 'Password Mismatch', description: MISMATCH, variant: 'destructive' })
      } else if (fieldErrors.password === TOO_SHORT) {
        toast({ title: 'Password Too Short', description: TOO_SHORT, variant: 'destructive' })
      }
    },
    async onSubmit(input) {
      const { email: registered } = await register({ email: input.email, password: input.password })
      toast({ title: 'Check Your Email', description: 'We sent a link to confirm your address.' })
      navigate('/check-email', { state: { email: registered } })
    },
    onError: (error) => toast({ title: 'Registration Failed', description: errorMessage(error, 'Failed to create account'), variant: 'destructive' }),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => submit(event, { email, password, confirmPassword })

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Create account">
      <EmailField value={email} onChange={setEmail} error={errors.email} />
      <NewPasswordFields label="Password" password={password} confirmPassword={confirmPassword} onPassword={setPassword} onConfirmPassword={setConfirmPassword} errors={errors} />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending && <Spinner decorative />}
        {pending ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  )
}
