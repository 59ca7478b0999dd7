import { useState, type FormEvent } from 'react'
import { KeyRound } from 'lucide-react'
import { ChangePasswordFormSchema } from '../../../../shared/account-protection-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useChangePassword } from '../api/change-password.ts'

/** Settings → Security: "Change Password" (accounts that sign in with one). */
export function ChangePasswordCard() {
  const [currentPassword, setCurrentPassword] = useState('')
  const [password, setPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const change = useChangePassword()
  const form = useSchemaForm(ChangePasswordFormSchema, {
    async onSubmit(input) {
      const { message } = await change.mutateAsync({ currentPassword: input.currentPassword, password: input.password })
      setCurrentPassword('')
      setPassword('')
      setConfirmPassword('')
      toast({ title: 'Password Changed', description: message })
    },
    onError: (error) => toast({ title: 'Password Not Changed', description: errorMessage(error, 'Failed to change the password'), variant: 'destructive' }),
  })
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => form.submit(event, { currentPassword, password, confirmPassword })
  return (
    <Card data-testid="change-password-card">
      <CardHeader>
        <div className="flex items-center gap-2">
          <KeyRound className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>Change Password</CardTitle>
        </div>
        <CardDescription className="max-w-2xl">Changing your password signs out every other session.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit} noValidate className="grid max-w-sm gap-3" aria-label="Change password">
          <FormField label="Current Password" name="currentPassword" type="password" autoComplete="current-password" value={currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} error={form.errors.currentPassword} />
          <FormField label="New Password" name="password" type="password" autoComplete="new-password" hint="At least 8 characters." value={password} onChange={(e) => setPassword(e.target.value)} error={form.errors.password} />
          <FormField label="Confirm New Password" name="confirmPassword" type="password" autoComplete="new-password" value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} error={form.errors.confirmPassword} />
          <Button type="submit" className="justify-self-start" disabled={form.pending}>
            {form.pending && <Spinner decorative />}
            Change Password
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
