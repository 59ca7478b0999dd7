import { useState } from 'react'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useCreateSmtpCredential } from '../api/create-smtp-credential.ts'
import { useDeleteSmtpCredential } from '../api/delete-smtp-credential.ts'
import { useSmtpCredentials } from '../api/get-smtp-credentials.ts'
import { useRevealSmtpPassword } from '../api/get-smtp-password.ts'
import { useRegenerateSmtpPassword } from '../api/regenerate-smtp-password.ts'
import { SMTP_PASSWORD_DISPLAY_MS } from '../lib/smtp-settings.ts'
import { useTimedPassword } from './use-timed-password.ts'

const failed = (title: string, error: unknown) =>
  toast({ title, description: errorMessage(error, 'Please try again.'), variant: 'destructive' })

/**
 * One alias's SMTP credential: absent → present with the password masked. Create,
 * Reveal and Regenerate each put a password on screen for 30 seconds, replacing whatever was
 * shown; Delete goes back to absent. Mutations are reset once used so no password stays in them.
 */
export function useSmtpCredential(aliasId: string, address: string) {
  const list = useSmtpCredentials(aliasId, address)
  const creation = useCreateSmtpCredential(aliasId)
  const reveal = useRevealSmtpPassword(aliasId)
  const regeneration = useRegenerateSmtpPassword(aliasId)
  const removal = useDeleteSmtpCredential(aliasId)
  const shown = useTimedPassword(SMTP_PASSWORD_DISPLAY_MS)
  const [confirming, setConfirming] = useState<'regenerate' | 'delete' | null>(null)
  const credential = list.data?.credential
  const busy = creation.isPending || reveal.isPending || regeneration.isPending || removal.isPending

  function create() {
    creation.mutate(undefined, {
      onSuccess: ({ password }) => {
        shown.show(password)
        toast({ title: 'SMTP Credentials Created', description: 'Copy the password now or reveal it later.' })
      },
      onError: (error) => failed('Failed to create SMTP credentials', error),
      onSettled: () => creation.reset(),
    })
  }

  function toggleReveal() {
    if (shown.password) return shown.hide()
    reveal.mutate(undefined, {
      onSuccess: (password) => {
        shown.show(password)
        toast({ title: 'Password revealed', description: 'It is hidden again in 30 seconds.' })
      },
      onError: (error) => failed('Reveal Failed', error),
      onSettled: () => reveal.reset(),
    })
  }

  function regenerate() {
    if (!credential) return
    regeneration.mutate(credential.id, {
      onSuccess: (password) => {
        setConfirming(null)
        shown.show(password)
        toast({ title: 'Password Regenerated', description: 'Update your mail app: the old password no longer works.' })
      },
      onError: (error) => failed('Failed to regenerate password', error),
      onSettled: () => regeneration.reset(),
    })
  }

  function remove() {
    if (!credential) return
    removal.mutate(credential.id, {
      onSuccess: () => {
        setConfirming(null)
        shown.hide()
        toast({ title: 'SMTP Credentials Deleted', description: `Mail apps can no longer send as ${credential.username}.` })
      },
      onError: (error) => failed('Failed to delete SMTP credentials', error),
    })
  }

  return {
    list, credential, host: list.data?.host ?? '', ports: list.data?.ports, busy,
    creating: creation.isPending, create,
    password: shown.password, secondsLeft: shown.secondsLeft, revealing: reveal.isPending, toggleReveal,
    regenerating: regeneration.isPending, regenerate,
    deleting: removal.isPending, remove,
    confirming, setConfirming,
  }
}

export type SmtpCredentialState = ReturnType<typeof useSmtpCredential>
