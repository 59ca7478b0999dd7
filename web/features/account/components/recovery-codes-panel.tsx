import { Download } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'

/** Recovery codes, shown once: as a list and as a text file to keep. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  function download() {
    const text = `Veilmail recovery codes (${new Date().toISOString().slice(0, 10)})\nEach code signs in once in place of a code from your authenticator app.\n\n${codes.join('\n')}\n`
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
    const link = document.createElement('a')
    link.href = url
    link.download = 'veilmail-recovery-codes.txt'
    link.click()
    URL.revokeObjectURL(url)
  }
  return (
    <div className="grid gap-4 rounded-md border border-primary/40 bg-muted/40 p-4" data-testid="recovery-codes">
      <p className="text-sm">
        Keep these recovery codes somewhere safe. Each one signs in once if you lose your authenticator app. They are shown only now.
      </p>
      <ul className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm" aria-label="Recovery codes">
        {codes.map((code) => <li key={code}>{code}</li>)}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={download}>
          <Download aria-hidden="true" />
          Download as a text file
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  )
}
