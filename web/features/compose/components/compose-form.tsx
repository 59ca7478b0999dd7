import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import { RotateCcw, Send } from 'lucide-react'
import type { CreateEmailJobInput } from '../../../../shared/email-job-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Card } from '../../../components/ui/card.tsx'
import { FormField } from '../../../components/ui/form-field.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { Textarea } from '../../../components/ui/textarea.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { ApiError, errorMessage } from '../../../lib/api-client.ts'
import {
  composeErrors,
  EMPTY_COMPOSE,
  initialShareChoice,
  PUBLIC_KEY_REQUIRED_TOAST,
  validateCompose,
  type ComposeErrors,
  type ComposeValues,
  type SenderAlias,
  type ShareableKey,
} from '../lib/compose-form.ts'
import { Field } from '../../../components/ui/field.tsx'
import { onUndoneDraft, restoreUndoneDraft, takeUndoneDraft } from '../lib/undone-drafts.ts'
import { useDraftAutosave } from '../lib/draft-autosave.ts'
import { EncryptionFields } from './encryption-fields.tsx'
import { ForwardedAttachments } from './forwarded-attachments.tsx'

const DRAFT_STATUS = { saving: 'Saving draft…', saved: 'Draft saved', failed: 'The draft could not be saved' } as const

/** Under From: that a mailbox sends as the real address, or that every alias is paused. */
function fromHint(senders: readonly SenderAlias[], chosen: string): string | undefined {
  const mailbox = senders.find((s) => s.mailbox && s.id === chosen)
  if (mailbox) return `Sent through ${mailbox.address}'s own mail server, as that address: the recipient sees it.`
  if (senders.length === 0) return 'All your aliases are paused. Resume one in the Dashboard to send from it.'
  return undefined
}

interface ComposeFormProps {
  /** the From options: connected mailboxes that can send first, then aliases (senders.ts) */
  aliases: readonly SenderAlias[]
  /** the user's saved keys; undefined while they load */
  keys: readonly ShareableKey[] | undefined
  /** Queues the e-mail (encrypting it first when asked); rejects when it could not. `onUndone` runs if the user undoes it. */
  onSend: (request: CreateEmailJobInput, onUndone: () => void) => Promise<unknown>
  /** The inbox dialog's form: starts from a reply or forward, has no Reset, closes once queued. */
  dialog?: {
    initial?: Partial<ComposeValues>
    /** a job is still being delivered: Send waits (its button reads "Delivering...") */
    delivering: boolean
    onQueued: () => void
    /** the dialog's own failure toast ("Unable to send email") */
    onFailed: (error: Error) => void
  }
}

/** The compose page's form and the inbox's compose dialog: From, To, Subject, Message, encryption; Send. */
export function ComposeForm({ aliases, keys, onSend, dialog }: ComposeFormProps) {
  const formRef = useRef<HTMLFormElement>(null)
  const [values, setValues] = useState<ComposeValues>(() => takeUndoneDraft() ?? { ...EMPTY_COMPOSE, fromAlias: dialog && aliases.length === 1 ? aliases[0].id : '', ...dialog?.initial })
  const [errors, setErrors] = useState<ComposeErrors>({})
  // Cc shows for a reply all (its Cc filled) or once asked for, as Gmail's "Cc" link
  const [showCc, setShowCc] = useState(() => values.cc !== '')
  const ccRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (values.cc !== '') setShowCc(true)
  }, [values.cc])
  const [attempts, setAttempts] = useState(0)
  // Each send remembers its own draft: Undo on that toast brings back exactly what was sent.
  const sending = useMutation({
    mutationFn: ({ request, draft }: { request: CreateEmailJobInput; draft: ComposeValues }) => onSend(request, () => restoreUndoneDraft(draft)),
  })
  const busy = sending.isPending
  const autosave = useDraftAutosave(values, true)
  const mailboxes = aliases.filter((a) => a.mailbox)
  const ownAliases = aliases.filter((a) => !a.mailbox)

  useEffect(() => onUndoneDraft(() => {
    const draft = takeUndoneDraft()
    if (draft) {
      setValues(draft)
      setErrors({})
    }
  }), [])

  // After a refused submit, take the keyboard to the first field that needs attention.
  useEffect(() => {
    if (attempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [attempts])

  function change(patch: Partial<ComposeValues>) {
    setValues((prev) => ({ ...prev, ...patch }))
    setErrors((prev) => {
      const next = { ...prev }
      for (const field of Object.keys(patch) as (keyof ComposeValues)[]) delete next[field]
      return next
    })
  }

  function changeShare(shareMyPublicKey: boolean) {
    const choice = values.myPublicKeyToShare || (shareMyPublicKey ? initialShareChoice(keys) : '')
    change({ shareMyPublicKey, myPublicKeyToShare: choice })
  }

  function reset() {
    setValues(EMPTY_COMPOSE)
    setErrors({})
    setShowCc(false)
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const result = validateCompose(values)
    if (!result.success) {
      setErrors(result.errors)
      setAttempts((n) => n + 1)
      if (values.useEncryption && !values.recipientPublicKey.trim()) toast({ ...PUBLIC_KEY_REQUIRED_TOAST, variant: 'destructive' })
      return
    }
    setErrors({})
    const draftId = await autosave.savedDraftId()
    const request = draftId ? { ...result.request, draftId } : result.request
    sending.mutate({ request, draft: { ...values, replacesEmailId: undefined } }, {
      onSuccess: () => {
        reset()
        autosave.restart()
        dialog?.onQueued()
      },
      onError: (error) => {
        if (error instanceof ApiError && error.errors) {
          setErrors(composeErrors(error.errors, values))
          setAttempts((n) => n + 1)
        }
        if (dialog) return dialog.onFailed(error)
        const title = error instanceof ApiError && error.rateLimited ? 'Sending Limit Reached' : 'Sending failed'
        toast({ title, description: errorMessage(error, 'Failed to queue email'), variant: 'destructive' })
      },
    })
  }

  const form = (
        <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Compose Email" className="grid gap-5">
          <Field
            label="From"
            error={errors.fromAlias}
            hint={fromHint(aliases, values.fromAlias)}
          >
            {(control) => (
              <NativeSelect {...control} name="fromAlias" value={values.fromAlias} disabled={busy} onChange={(e) => change({ fromAlias: e.target.value })}>
                <option value="" disabled>
                  {mailboxes.length > 0 ? 'Select a sender' : 'Select an alias'}
                </option>
                {mailboxes.length > 0 ? (
                  <>
                    <optgroup label="Your mailboxes">
                      {mailboxes.map((m) => <option key={m.id} value={m.id}>{m.address}</option>)}
                    </optgroup>
                    {ownAliases.length > 0 && (
                      <optgroup label="Aliases">
                        {ownAliases.map((alias) => <option key={alias.id} value={alias.id}>{alias.address}</option>)}
                      </optgroup>
                    )}
                  </>
                ) : ownAliases.map((alias) => (
                  <option key={alias.id} value={alias.id}>
                    {alias.address}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <div className="grid gap-2">
            <FormField
              label="To"
              name="to"
              type="text"
              inputMode="email"
              autoComplete="email"
              spellCheck={false}
              placeholder="recipient@example.com"
              value={values.to}
              disabled={busy}
              onChange={(e) => change({ to: e.target.value })}
              error={errors.to}
            />
            {!showCc && (
              <Button
                type="button"
                variant="link"
                size="sm"
                className="h-auto justify-self-start p-0"
                aria-label="Add Cc recipients"
                disabled={busy}
                onClick={() => {
                  setShowCc(true)
                  requestAnimationFrame(() => ccRef.current?.focus())
                }}
              >
                Cc
              </Button>
            )}
          </div>
          {showCc && (
            <FormField
              ref={ccRef}
              label="Cc"
              name="cc"
              type="text"
              inputMode="email"
              autoComplete="off"
              spellCheck={false}
              placeholder="more@example.com, others@example.org"
              hint="Everyone in To and Cc sees every address. Separate them with commas."
              value={values.cc}
              disabled={busy}
              onChange={(e) => change({ cc: e.target.value })}
              error={errors.cc}
            />
          )}
          <FormField
            label="Subject"
            name="subject"
            autoComplete="off"
            placeholder="What is this about?"
            value={values.subject}
            disabled={busy}
            onChange={(e) => change({ subject: e.target.value })}
            error={errors.subject}
          />
          <Field label="Message" error={errors.body}>
            {(control) => (
              <Textarea
                {...control}
                name="body"
                rows={10}
                placeholder="Write your message..."
                value={values.body}
                disabled={busy}
                onChange={(e) => change({ body: e.target.value })}
              />
            )}
          </Field>
          {values.attachments.length > 0 && (
            <ForwardedAttachments
              attachments={values.attachments}
              error={errors.attachments}
              disabled={busy}
              onRemove={(id) => change({ attachments: values.attachments.filter((a) => a.id !== id) })}
            />
          )}
          <EncryptionFields values={values} errors={errors} keys={keys} disabled={busy} onChange={change} onShareChange={changeShare} />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
            {autosave.status !== 'none' && (
              <p className="text-xs text-muted-foreground sm:mr-auto" aria-live="polite" data-testid="draft-status">
                {DRAFT_STATUS[autosave.status]}
              </p>
            )}
            {dialog ? (
              <Button type="submit" disabled={busy || dialog.delivering}>
                {busy || dialog.delivering ? <Spinner decorative /> : <Send aria-hidden="true" />}
                {busy ? 'Sending...' : dialog.delivering ? 'Delivering...' : 'Send'}
              </Button>
            ) : (
              <>
                <Button variant="outline" onClick={reset} disabled={busy}>
                  <RotateCcw aria-hidden="true" />
                  Reset
                </Button>
                <Button type="submit" disabled={busy}>
                  {busy ? <Spinner decorative /> : <Send aria-hidden="true" />}
                  {busy ? 'Sending...' : 'Send Email'}
                </Button>
              </>
            )}
          </div>
        </form>
  )
  return dialog ? form : <Card className="p-4 sm:p-6">{form}</Card>
}
