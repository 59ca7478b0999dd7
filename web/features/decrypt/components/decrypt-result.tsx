import { useEffect, useState } from 'react'
import { CircleCheck, Code, Copy, LockOpen, X } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Textarea } from '../../../components/ui/textarea.tsx'
import { copyToClipboard } from '../../../lib/copy-text.ts'
import { parseDecryptedMail, type DecryptedMail } from '../lib/decrypted-mail.ts'
import { DecryptedMailView } from './decrypted-mail-view.tsx'

const copyResult = (text: string) => copyToClipboard(text, { title: 'Copied to clipboard', description: 'The decrypted message was copied.' })

/** The decrypted text parsed as mail when it is a MIME message; null while parsing or when it is not. */
export function useDecryptedMail(text: string | undefined): DecryptedMail | null {
  const [parsed, setParsed] = useState<{ text: string; mail: DecryptedMail | undefined }>()
  useEffect(() => {
    if (text === undefined) return
    let current = true
    void parseDecryptedMail(text).then((mail) => current && setParsed({ text, mail }))
    return () => {
      current = false
    }
  }, [text])
  return parsed && parsed.text === text && parsed.mail ? parsed.mail : null
}

/**
 * The result panel: the decrypted message, copy, "Successfully decrypted" and Clear Results.
 * A decrypted forward (MIME) shows as a readable message, its source one click away.
 */
export function DecryptResult({ text, onClear }: { text: string | undefined; onClear: () => void }) {
  const mail = useDecryptedMail(text)
  const [source, setSource] = useState(false)
  return (
    <Card className="flex flex-col" data-testid="decrypt-result">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle>Decrypted Message</CardTitle>
        {text !== undefined && (
          <Button variant="outline" size="sm" onClick={() => copyResult(text)} aria-label="Copy decrypted message">
            <Copy aria-hidden="true" />
            Copy
          </Button>
        )}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        {text === undefined ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-3 rounded-lg border border-dashed border-border px-4 py-16 text-center">
            <LockOpen className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">Enter encrypted text and decrypt to see results</p>
          </div>
        ) : (
          <>
            {mail && !source ? (
              <DecryptedMailView mail={mail} />
            ) : (
              <Textarea readOnly value={text} rows={14} aria-label="Decrypted text" className="flex-1 whitespace-pre-wrap" />
            )}
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="flex items-center gap-2 text-sm font-medium text-primary">
                <CircleCheck className="size-4" aria-hidden="true" />
                Successfully decrypted
              </p>
              {mail && (
                <Button variant="ghost" size="sm" onClick={() => setSource((v) => !v)} aria-pressed={source}>
                  <Code aria-hidden="true" />
                  {source ? 'Show message' : 'Show source'}
                </Button>
              )}
              <Button variant="ghost" size="sm" onClick={onClear}>
                <X aria-hidden="true" />
                Clear Results
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  )
}
