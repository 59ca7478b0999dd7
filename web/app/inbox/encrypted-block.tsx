import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { Copy, KeyRound, Lock, PenLine, Unlock } from 'lucide-react'
import type { DecryptAutoInput, DecryptManualInput } from '../../../shared/encryption-schemas.ts'
import { Button } from '../../components/ui/button.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { toast, type ToastInput } from '../../components/ui/use-toast.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { copyToClipboard } from '../../lib/copy-text.ts'
import { decryptWithSavedKey } from '../../features/decrypt/api/decrypt-with-saved-key.ts'
import { AutoDecryptForm } from '../../features/decrypt/components/auto-decrypt-form.tsx'
import { useDecryptedMail } from '../../features/decrypt/components/decrypt-result.tsx'
import { DecryptedMailView } from '../../features/decrypt/components/decrypted-mail-view.tsx'
import { ManualDecryptForm } from '../../features/decrypt/components/manual-decrypt-form.tsx'
import { decryptWithPrivateKey } from '../../features/decrypt/lib/decrypt-message.ts'
import { useEncryptionKeys } from '../../features/encryption/api/get-encryption-keys.ts'
import { AgeError } from '../../lib/age/age-client.ts'

const copy = (text: string) => copyToClipboard(text, { title: 'Copied to clipboard', description: 'The text was copied.' })

/** The decrypt widget's toasts. */
function failureToast(error: unknown): ToastInput {
  if (error instanceof AgeError) return { title: 'Decryption failed', description: error.message || 'Failed to decrypt message.', variant: 'destructive' }
  return { title: 'Decryption error', description: error instanceof Error && error.message ? error.message : 'Failed to decrypt message.', variant: 'destructive' }
}

type DecryptInput = { mode: 'auto'; input: DecryptAutoInput } | { mode: 'manual'; input: DecryptManualInput }

/**
 * An armored age block inside a message (README "Encryption of forwarded mail"): Copy, Decrypt with a
 * saved key and its master password (Auto) or a pasted private key (Manual). Everything runs in
 * this page; neither the key nor the password is sent anywhere.
 */
export function EncryptedBlock({ armored }: { armored: string }) {
  const userId = useAuth().user?.id
  const keys = useEncryptionKeys(userId)
  const [open, setOpen] = useState(false)
  const [showOriginal, setShowOriginal] = useState(false)
  const decrypt = useMutation({
    mutationFn: (request: DecryptInput) =>
      request.mode === 'auto' ? decryptWithSavedKey(request.input) : decryptWithPrivateKey(request.input.encryptedText, request.input.privateKey),
    onSuccess: () => toast({ title: 'Message decrypted', description: 'The encrypted block was opened in this browser.' }),
    onError: (error) => toast(failureToast(error)),
  })
  const decrypted = decrypt.data
  const mail = useDecryptedMail(decrypted)

  return (
    <section aria-label="Encrypted Message" className="grid gap-3 rounded-lg border border-primary/30 bg-primary/5 p-3 sm:p-4" data-testid="encrypted-block">
      <header className="flex flex-wrap items-center gap-2">
        <Lock className="size-4 text-primary" aria-hidden="true" />
        <h3 className="flex-1 text-sm font-semibold">Encrypted Message</h3>
        <Button variant="outline" size="sm" onClick={() => void copy(armored)}>
          <Copy aria-hidden="true" />
          Copy
        </Button>
        {decrypted === undefined && (
          <Button size="sm" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
            <Unlock aria-hidden="true" />
            Decrypt
          </Button>
        )}
      </header>
      {decrypted !== undefined && !showOriginal ? (
        <div className="grid gap-2">
          <div className="flex items-center gap-2">
            <p className="flex-1 text-sm font-medium text-primary">Decrypted:</p>
            <Button variant="ghost" size="sm" onClick={() => void copy(decrypted)} aria-label="Copy decrypted text">
              <Copy aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setShowOriginal(true)}>
              Show Original
            </Button>
          </div>
          {mail ? <DecryptedMailView mail={mail} /> : <pre className="whitespace-pre-wrap break-words rounded-md bg-card p-3 text-sm" data-testid="decrypted-text">{decrypted}</pre>}
        </div>
      ) : (
        <>
          <pre className="max-h-40 overflow-y-auto whitespace-pre-wrap break-all rounded-md bg-card p-3 font-mono text-[11px] leading-snug text-muted-foreground">{armored}</pre>
          {decrypted !== undefined && (
            <Button variant="ghost" size="sm" className="justify-self-start" onClick={() => setShowOriginal(false)}>
              Show decrypted
            </Button>
          )}
        </>
      )}
      {open && decrypted === undefined && (
        <Tabs defaultValue="auto">
          <TabsList>
            <TabsTrigger value="auto">
              <KeyRound aria-hidden="true" />
              Auto
            </TabsTrigger>
            <TabsTrigger value="manual">
              <PenLine aria-hidden="true" />
              Manual
            </TabsTrigger>
          </TabsList>
          <TabsContent value="auto">
            {keys.data && keys.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">No encryption keys available. Create keys in Settings to use auto-decrypt.</p>
            ) : (
              keys.data && <AutoDecryptForm keys={keys.data} encryptedText={armored} pending={decrypt.isPending} onDecrypt={(input) => decrypt.mutate({ mode: 'auto', input })} />
            )}
          </TabsContent>
          <TabsContent value="manual">
            <ManualDecryptForm encryptedText={armored} pending={decrypt.isPending} onDecrypt={(input) => decrypt.mutate({ mode: 'manual', input })} />
          </TabsContent>
        </Tabs>
      )}
    </section>
  )
}
