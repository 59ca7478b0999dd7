// Copying to the clipboard with a toast that says how it went. The dashboard words it its own way
// ("Copied!", "Unable to copy to clipboard"); the other pages say "Failed to copy text to clipboard.".
import { toast } from '../components/ui/use-toast.ts'

/** Copies `text`; the toast is `copied`, or "Copy failed" with `failure` when the browser refuses. */
export async function copyToClipboard(text: string, copied: { title: string; description: string }, failure = 'Failed to copy text to clipboard.'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    toast(copied)
  } catch {
    toast({ title: 'Copy failed', description: failure, variant: 'destructive' })
  }
}

/** The dashboard's wording: "Copied!" with "{what} copied to clipboard". */
export const copyText = (text: string, what = text): Promise<void> =>
  copyToClipboard(text, { title: 'Copied!', description: `${what} copied to clipboard` }, 'Unable to copy to clipboard')
