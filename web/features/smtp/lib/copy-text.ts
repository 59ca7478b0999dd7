import { toast } from '../../../components/ui/use-toast.ts'

/** Copies to the clipboard and says how it went (spec §8, dashboard wording). */
export async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    toast({ title: 'Copied!', description: `${what} copied to clipboard` })
  } catch {
    toast({ title: 'Copy failed', description: 'Unable to copy to clipboard', variant: 'destructive' })
  }
}
