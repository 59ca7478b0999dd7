// A form the browser checks with a valibot schema before sending it: the message under each field
// (from that parse, or from the API's answer when it refuses) and whether a send is under way.
import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { apiFieldErrors, issuesToFieldErrors, type FieldErrorMap } from './form-errors.ts'

interface SchemaFormHandlers<TSchema extends v.GenericSchema> {
  /** Sends the parsed values; a throw shows the API's field messages and calls onError. */
  onSubmit: (values: v.InferOutput<TSchema>) => Promise<void>
  /** The parse failed: the messages are already under the fields. */
  onInvalid?: (errors: FieldErrorMap) => void
  onError: (error: unknown, errors: FieldErrorMap) => void
}

export function useSchemaForm<TSchema extends v.GenericSchema>(schema: TSchema, handlers: SchemaFormHandlers<TSchema>) {
  const [errors, setErrors] = useState<FieldErrorMap>({})
  const [pending, setPending] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>, input: v.InferInput<TSchema>) {
    event.preventDefault()
    const parsed = v.safeParse(schema, input)
    if (!parsed.success) {
      const fields = issuesToFieldErrors(parsed.issues)
      setErrors(fields)
      handlers.onInvalid?.(fields)
      return
    }
    setErrors({})
    setPending(true)
    try {
      await handlers.onSubmit(parsed.output)
    } catch (error) {
      const fields = apiFieldErrors(error)
      setErrors(fields)
      handlers.onError(error, fields)
    } finally {
      setPending(false)
    }
  }

  return { errors, pending, submit }
}
