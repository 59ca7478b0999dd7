import { useId, useState, type FormEvent } from 'react'
import { Plus } from 'lucide-react'
import * as v from 'valibot'
import { CreateAliasSchema, NOTES_MAX } from '../../../../shared/alias-schemas.ts'
import { isReservedAliasName } from '../../../../shared/reserved-alias-names.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useCreateAlias } from '../api/create-alias.ts'
import { useDomains } from '../api/get-domains.ts'
import { issuesToFieldErrors, type FieldErrorMap } from '../../../lib/form-errors.ts'
import { describeCreateError, RESERVED_TOAST, VALIDATION_TOAST } from '../lib/alias-errors.ts'
import { DomainSelect } from './domain-select.tsx'

const EMPTY = { alias: '', domain: '', forwardTo: '', notes: '' }

export function CreateAliasForm({ userId }: { userId: string }) {
  const formId = useId()
  const domains = useDomains()
  const creation = useCreateAlias(userId)
  const [values, setValues] = useState(EMPTY)
  const [errors, setErrors] = useState<FieldErrorMap>({})
  // Until the user picks one, the first domain of the sorted list (the preferred one) is the selection.
  const domain = values.domain || domains.data?.[0] || ''

  const set = (field: keyof typeof EMPTY) => (value: string) => setValues((prev) => ({ ...prev, [field]: value }))

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = v.safeParse(CreateAliasSchema, { ...values, domain }, { abortPipeEarly: true })
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.issues))
      toast({ ...VALIDATION_TOAST, variant: 'destructive' })
      return
    }
    if (isReservedAliasName(parsed.output.alias)) {
      setErrors({ alias: RESERVED_TOAST.description })
      toast({ ...RESERVED_TOAST, variant: 'destructive' })
      return
    }
    setErrors({})
    const input = { ...parsed.output, notes: parsed.output.notes || undefined }
    creation.mutate(input, {
      onSuccess: (alias) => {
        toast({ title: 'Alias Created', description: `${alias.alias}@${alias.domain} is ready to receive mail.` })
        setValues(EMPTY)
      },
      onError: (error) => {
        const { toast: message, fields } = describeCreateError(error)
        setErrors(fields)
        toast({ ...message, variant: 'destructive' })
      },
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle id={`${formId}-title`}>Create New Alias</CardTitle>
        <CardDescription>A new address on one of our domains that forwards to your real inbox or webhook.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit} noValidate aria-labelledby={`${formId}-title`} className="grid gap-4 md:grid-cols-2">
          <FormField
            label="Alias"
            name="alias"
            placeholder="shopping"
            autoComplete="off"
            spellCheck={false}
            value={values.alias}
            onChange={(e) => set('alias')(e.target.value)}
            error={errors.alias}
            hint="Letters, digits, dots, hyphens and underscores."
          />
          <DomainSelect
            domains={domains.data ?? []}
            loading={domains.isPending}
            failed={domains.isError}
            value={domain}
            onChange={set('domain')}
            error={errors.domain}
          />
          <div className="md:col-span-2">
            <FormField
              label="Forward To"
              name="forwardTo"
              placeholder="you@example.com, https://example.com/hook"
              autoComplete="off"
              spellCheck={false}
              value={values.forwardTo}
              onChange={(e) => set('forwardTo')(e.target.value)}
              error={errors.forwardTo}
              hint="One or more e-mail addresses and/or https:// webhook URLs, separated by commas."
            />
          </div>
          <div className="md:col-span-2">
            <FormField
              label="Notes (optional)"
              name="notes"
              placeholder="Where you used this alias"
              autoComplete="off"
              maxLength={NOTES_MAX}
              value={values.notes}
              onChange={(e) => set('notes')(e.target.value.slice(0, NOTES_MAX))}
              error={errors.notes}
              hint={<span data-testid="notes-remaining">{NOTES_MAX - values.notes.length} characters remaining</span>}
            />
          </div>
          <div className="md:col-span-2">
            <Button type="submit" disabled={creation.isPending} className="w-full sm:w-auto">
              {creation.isPending ? <Spinner decorative /> : <Plus aria-hidden="true" />}
              {creation.isPending ? 'Creating...' : 'Create Alias'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
