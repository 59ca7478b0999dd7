import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import * as v from 'valibot'
import { LoginSchema } from '../../../../shared/auth-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { apiFieldErrors, issuesToFieldErrors, type FieldErrorMap } from '../lib/form-errors.ts'
import { useAuth } from './auth-context.ts'

export function LoginForm() {
  const { login } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FieldErrorMap>({})
  const [pending, setPending] = useState(false)

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = v.safeParse(LoginSchema, { email, password })
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.issues))
      return
    }
    setErrors({})
    setPending(true)
    try {
      await login(parsed.output)
      toast({ title: 'Login Successful', description: 'Welcome back to Veilmail.' })
      navigate('/dashboard')
    } catch (error) {
      setErrors(apiFieldErrors(error))
      toast({ title: 'Login Failed', description: errorMessage(error, 'Invalid email or password'), variant: 'destructive' })
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4" aria-label="Sign in">
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
