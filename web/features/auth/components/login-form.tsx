import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { LoginSchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useAuth } from '../../../lib/auth-context.ts'
import { EmailField } from './email-field.tsx'
import { usePasskeyAutofill } from './use-passkey-autofill.ts'

export function LoginForm() {
  const { login } = useAuth()
  const navigate = useNavigate()
  usePasskeyAutofill()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { errors, pending, submit } = useSchemaForm(LoginSchema, {
    async onSubmit(input) {
      if (!(await login(input))) {
        navigate('/auth/second-factor')
        return
      }
      toast({ title: 'Login Successful', description: 'Welcome back to Veilmail.' })
      navigate('/dashboard')
    },
    onError: (error) => toast({ title: 'Login Failed', description: errorMessage(error, 'Invalid email or password'), variant: 'destructive' }),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => submit(event, { email, password })

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Sign in">
      {/* "webauthn": the browser may offer this site's passkeys here (conditional UI) */}
      <EmailField value={email} onChange={setEmail} error={errors.email} autoComplete="username webauthn" />
      <FormField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
      />
      <Link to="/forgot-password" className="-mt-2 justify-self-end text-sm font-medium text-primary underline-offset-4 hover:underline">
        Forgot password?
      </Link>
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending && <Spinner decorative />}
        {pending ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  )
}
