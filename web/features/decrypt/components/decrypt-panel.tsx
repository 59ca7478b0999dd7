import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { KeyRound, PenLine } from 'lucide-react'
import type { DecryptManualInput, EncryptionKeyView } from '../../../../shared/encryption-schemas.ts'
import { Card, CardContent } from '../../../components/ui/card.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { useDecryptWithSavedKey } from '../api/decrypt-with-saved-key.ts'
import { decryptFailureToast } from '../lib/decrypt-feedback.ts'
import { decryptWithPrivateKey } from '../lib/decrypt-message.ts'
import { AutoDecryptForm } from './auto-decrypt-form.tsx'
import { DecryptResult } from './decrypt-result.tsx'
import { ManualDecryptForm } from './manual-decrypt-form.tsx'
import { NoKeysNotice } from './no-keys-notice.tsx'

interface DecryptPanelProps {
  /** The user's saved keys; undefined while they load. */
  keys: EncryptionKeyView[] | undefined
  /** Why the keys could not be loaded. */
  keysError?: string
}

/** The Decrypt page body: Auto and Manual tabs beside the result panel. Everything runs locally. */
export function DecryptPanel({ keys, keysError }: DecryptPanelProps) {
  const [result, setResult] = useState<string>()
  const auto = useDecryptWithSavedKey()
  const manual = useMutation({ mutationFn: ({ encryptedText, privateKey }: DecryptManualInput) => decryptWithPrivateKey(encryptedText, privateKey) })
  const pending = auto.isPending || manual.isPending

  const callbacks = (isManual: boolean) => ({
    onSuccess: (text: string) => {
      setResult(text)
      toast({ title: 'Decryption successful', description: 'Your message has been decrypted.' })
    },
    onError: (error: Error) => toast(decryptFailureToast(error, { manual: isManual })),
  })

  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <Card>
        <CardContent className="pt-6">
          <Tabs defaultValue="auto">
            <TabsList>
              <TabsTrigger value="auto">
                <KeyRound aria-hidden="true" />
                Auto Decrypt
              </TabsTrigger>
              <TabsTrigger value="manual">
                <PenLine aria-hidden="true" />
                Manual Decrypt
              </TabsTrigger>
            </TabsList>
            <TabsContent value="auto">
              {keysError ? (
                <p role="alert" className="py-10 text-center text-sm text-destructive">
                  {keysError}
                </p>
              ) : keys === undefined ? (
                <div className="flex items-center justify-center gap-3 py-10 text-sm text-muted-foreground">
                  <Spinner decorative />
                  Loading keys...
                </div>
              ) : keys.length === 0 ? (
                <NoKeysNotice />
              ) : (
                <AutoDecryptForm
                  keys={keys}
                  pending={pending}
                  onDecrypt={(input) => {
                    setResult(undefined)
                    auto.mutate(input, callbacks(false))
                  }}
                />
              )}
            </TabsContent>
            <TabsContent value="manual">
              <ManualDecryptForm
                pending={pending}
                onDecrypt={(input) => {
                  setResult(undefined)
                  manual.mutate(input, callbacks(true))
                }}
              />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
      <DecryptResult text={result} onClear={() => setResult(undefined)} />
    </div>
  )
}
